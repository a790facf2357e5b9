import { RoomHoldings } from '../../../src/access/room-holdings';
import { clientNetwork } from '../../../src/access/client-network';

describe('room holdings (who created which standing room)', () => {
  it('lists the standing rooms a client created, dropping names that no longer exist', () => {
    const live = new Set<string>();
    const exists = (room: string): boolean => live.has(room);
    const holdings = new RoomHoldings(10);
    holdings.record('a', 'r1', exists);
    holdings.record('a', 'r2', exists);
    live.add('r1').add('r2');
    expect(holdings.held('a', exists)).toEqual(['r1', 'r2']);
    expect(holdings.held('a', exists, 1)).toEqual(['r1']);
    // a refused write (never created) and a reaped room are both absent: gone from the table
    holdings.record('a', 'never', exists);
    live.delete('r1');
    expect(holdings.held('a', exists)).toEqual(['r2']);
    expect(holdings.size).toBe(1);
    expect(holdings.held('nobody', exists)).toEqual([]);
  });

  it('gives a re-created room to its latest creator only', () => {
    const exists = (): boolean => true;
    const holdings = new RoomHoldings(10);
    holdings.record('a', 'r', exists);
    holdings.record('b', 'r', exists);
    expect(holdings.held('a', exists)).toEqual([]);
    expect(holdings.held('b', exists)).toEqual(['r']);
  });

  it('stays bounded: past twice the room cap it sweeps every name that does not exist', () => {
    const exists = (room: string): boolean => room === 'kept';
    const holdings = new RoomHoldings(5);
    holdings.record('a', 'kept', exists);
    for (let i = 0; i < 100; i++) holdings.record(`client-${i}`, `refused-${i}`, exists);
    expect(holdings.size).toBeLessThanOrEqual(11);
    expect(holdings.held('a', exists)).toEqual(['kept']);
  });
});

describe('client networks (the unit the room reserve counts)', () => {
  it('is an IPv4 address’s /24, an IPv6 client’s /48, and anything else as it is', () => {
    expect(clientNetwork('198.51.100.7')).toBe('198.51.100.0/24');
    expect(clientNetwork('2001:db8:5:6::/64')).toBe('2001:db8:5::/48');
    expect(clientNetwork('proxy-said-this')).toBe('proxy-said-this');
  });
});
