import { clientKey } from '../../../src/http/client-prefix';

describe('client budget keys (issue 18 item 5)', () => {
  it('keeps IPv4 addresses and names as they are', () => {
    expect(clientKey('127.0.0.2')).toBe('127.0.0.2');
    expect(clientKey('proxy-client-7')).toBe('proxy-client-7');
  });

  it('charges every address of one IPv6 /64 to one client', () => {
    const key = clientKey('2001:db8:1:2::a');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const same of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002::1', '2001:db8:1:2:0:0:0:0'])
      expect(clientKey(same)).toBe(key);
    expect(clientKey('2001:db8:1:3::a')).not.toBe(key);
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('2001:db8:1:2::1.2.3.4')).toBe(key); // an embedded IPv4 tail
  });

  it('reads an IPv4-mapped IPv6 address (a dual-stack listener) as the IPv4 address', () => {
    expect(clientKey('::ffff:127.0.0.3')).toBe('127.0.0.3');
  });

  it('leaves a value that only looks like IPv6 alone', () => {
    expect(clientKey('not:an:address')).toBe('not:an:address');
  });
});
