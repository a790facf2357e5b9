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
});
