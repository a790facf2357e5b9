import { connectionClient } from '../../../src/http/client-identity';
import {
  effectiveMaxConnections,
  RESERVED_DESCRIPTORS,
} from '../../../src/http/connections/connection-limits';
import { duplicateHostRefusal } from '../../../src/http/duplicate-host';

describe('connection cap', () => {
  it('defaults to the descriptor limit minus the reserve, never below 64; an explicit value wins', () => {
    expect(effectiveMaxConnections(0, 20_000)).toBe(20_000 - RESERVED_DESCRIPTORS);
    expect(effectiveMaxConnections(0, 1024)).toBe(64);
    expect(effectiveMaxConnections(500, 20_000)).toBe(500);
    expect(effectiveMaxConnections(0, null)).toBe(8192);
  });
});

describe('connection identity', () => {
  it('counts an IPv6 /64 as one client, like the request identity does', () => {
    expect(connectionClient('2001:db8:1:2::1')).toBe(connectionClient('2001:db8:1:2:ffff::9'));
    expect(connectionClient('2001:db8:1:2::1')).not.toBe(connectionClient('2001:db8:1:3::1'));
    expect(connectionClient('127.0.0.2')).toBe('127.0.0.2');
  });
});

describe('duplicated Host', () => {
  it('is refused whatever the case of the names; one Host (or none) passes', () => {
    expect(duplicateHostRefusal(['Host', 'a', 'hOST', 'b'])).toMatch(/^400 .*2 Host headers/);
    expect(duplicateHostRefusal(['Host', 'a', 'Accept', '*/*'])).toBeNull();
    expect(duplicateHostRefusal([])).toBeNull();
  });
});
