import { WaitSlots } from '../../../src/access/wait-slots';
import { buildConfig } from '../../../src/config/load-config';

describe('long-poll slots', () => {
  it('caps parked waits per client and per process, naming which cap was hit', () => {
    const slots = new WaitSlots(buildConfig({ maxWaitersPerIp: 2, maxWaitersTotal: 3 }));
    const a1 = slots.take('a');
    const a2 = slots.take('a');
    expect([a1.held, a2.held]).toEqual([true, true]);
    expect(slots.take('a')).toEqual({ held: false, cause: 'you hold all 2 slots one caller may have' });
    expect(slots.take('b').held).toBe(true);
    expect(slots.take('c')).toEqual({ held: false, cause: 'all 3 on this instance are busy' });
    expect([slots.inUse, slots.clients]).toEqual([3, 2]);
    if (a1.held) {
      a1.release();
      a1.release(); // a second release gives nothing back twice
    }
    expect(slots.inUse).toBe(2);
    expect(slots.take('c').held).toBe(true);
  });

  it('forgets a client once its last wait ends, and 0 refuses every slot', () => {
    const slots = new WaitSlots(buildConfig({}));
    const held = slots.take('a');
    if (held.held) held.release();
    expect([slots.inUse, slots.clients]).toEqual([0, 0]);
    const none = new WaitSlots(buildConfig({ maxWaitersPerIp: 0 }));
    expect(none.take('a')).toEqual({ held: false, cause: 'you hold all 0 slots one caller may have' });
    const closed = new WaitSlots(buildConfig({ maxWaitersTotal: 0 }));
    expect(closed.take('a')).toEqual({ held: false, cause: 'all 0 on this instance are busy' });
  });

  it('keeps half the pool for clients holding no slot (issue 18 fair share)', () => {
    // Given a pool of 8 and up to 4 per client: a client at its cap fills half the pool
    const slots = new WaitSlots(buildConfig({ maxWaitersPerIp: 4, maxWaitersTotal: 8 }));
    for (let i = 0; i < 4; i++) expect(slots.take('a').held).toBe(true);
    // Then a second client gets its first slot but no second one while half the pool is parked
    expect(slots.take('b').held).toBe(true);
    const second = slots.take('b');
    expect(second.held).toBe(false);
    if (!second.held) expect(second.cause).toContain('kept for callers holding none');
    // And every newcomer still finds a slot until the pool is full
    for (const client of ['c', 'd', 'e']) expect(slots.take(client).held).toBe(true);
    expect(slots.take('f')).toEqual({ held: false, cause: 'all 8 on this instance are busy' });
  });
});
