import { decideAppend, RoomLimits } from '../../../src/rooms/room-append.decider';
import { RoomAppendState, RoomWriteState } from '../../../src/rooms/room-write-state';

// Given a room state, when a message is decided, then these events (or this refusal).
const AT = 1_767_225_600_000_000; // 2026-01-01T00:00:00Z in µs
const LIMITS: RoomLimits = {
  maxRooms: 10,
  roomBytesTotal: 1 << 20,
  retentionSeconds: 7 * 86400,
  stillbornSeconds: 6 * 3600,
};
const absent: RoomWriteState = { exists: false, generation: 0, head: 0 };
const live = (head: number, generation = 1): RoomWriteState => ({ exists: true, generation, head });

function given(state: Partial<RoomAppendState> = {}): RoomAppendState {
  return { target: absent, eventsRoom: absent, lastNonce: null, roomCount: 0, roomBytes: 0, ...state };
}

describe('decideAppend (given a room state, when a message arrives)', () => {
  it('appends the next seq to a room that exists, and nothing else', () => {
    const decision = decideAppend(
      { room: 'lobby', from: 'ann', text: 'hi' },
      given({ target: live(41) }),
      LIMITS,
      AT,
    );
    expect(decision.seq).toBe(42);
    expect(decision.createsRoom).toBe(false);
    expect(decision.events.map((e) => e.type)).toEqual(['message.appended']);
    expect(JSON.parse(decision.record)).toMatchObject({ seq: 42, from: 'ann', text: 'hi' });
  });

  it('creates a new room, creates /r/events the first time, and announces the room there', () => {
    const decision = decideAppend({ room: 'lobby', from: 'ann', text: 'hi' }, given(), LIMITS, AT);
    expect(decision.events).toEqual([
      { type: 'room.created', room: 'lobby', generation: 1, at: AT },
      { type: 'room.created', room: 'events', generation: 1, at: AT },
      expect.objectContaining({ type: 'message.appended', room: 'events', seq: 1 }),
      expect.objectContaining({ type: 'message.appended', room: 'lobby', seq: 1 }),
    ]);
    expect(decision.createsRoom).toBe(true);
  });

  it('continues a reaped room from its floor in the next generation', () => {
    const reaped: RoomWriteState = { exists: false, generation: 2, head: 17 };
    const decision = decideAppend(
      { room: 'lobby', from: 'ann', text: 'back' },
      given({ target: reaped, eventsRoom: live(5) }),
      LIMITS,
      AT,
    );
    expect(decision.events[0]).toEqual({ type: 'room.created', room: 'lobby', generation: 3, at: AT });
    expect(decision.seq).toBe(18);
  });

  it('never announces a private p- room', () => {
    const decision = decideAppend({ room: 'p-secret', from: 'ann', text: 'x' }, given(), LIMITS, AT);
    expect(decision.events.map((e) => `${e.type}:${e.room}`)).toEqual([
      'room.created:p-secret',
      'message.appended:p-secret',
    ]);
  });

  it('refuses a new room at the room cap, but never a write to an existing room', () => {
    const full = { roomCount: 10 };
    expect(() => decideAppend({ room: 'new', from: 'a', text: 'x' }, given(full), LIMITS, AT)).toThrow(
      /room limit reached \(10 is the cap\)/,
    );
    expect(
      decideAppend({ room: 'old', from: 'a', text: 'x' }, given({ ...full, target: live(1) }), LIMITS, AT)
        .seq,
    ).toBe(2);
  });

  it('refuses a new room when room storage is full', () => {
    expect(() =>
      decideAppend({ room: 'new', from: 'a', text: 'x' }, given({ roomBytes: 1 << 20 }), LIMITS, AT),
    ).toThrow(/room storage is full/);
  });

  it('refuses a signed append whose nonce is not above the last one, and spends a fresh one', () => {
    const signature = { nonceDigits: '100', sig: 'c2ln' };
    const message = { room: 'mb-box', from: 'did:key:z6Mk', text: 'x', signature };
    expect(() => decideAppend(message, given({ target: live(3), lastNonce: 100n }), LIMITS, AT)).toThrow(
      /nonce 100 is not greater than 100/,
    );
    const decision = decideAppend(message, given({ target: live(3), lastNonce: 99n }), LIMITS, AT);
    expect(decision.spent).toEqual({ room: 'mb-box', did: 'did:key:z6Mk', nonce: 100n });
    expect(decision.events).toEqual([expect.objectContaining({ type: 'message.appended', nonce: '100' })]);
  });

  it('reads the capacity figures only for a new room and the nonce only for a signed append', () => {
    const asked: string[] = [];
    const state = {
      target: live(1),
      eventsRoom: live(1),
      get lastNonce() {
        asked.push('lastNonce');
        return null;
      },
      get roomCount() {
        asked.push('roomCount');
        return 0;
      },
      get roomBytes() {
        asked.push('roomBytes');
        return 0;
      },
    };
    decideAppend({ room: 'lobby', from: 'ann', text: 'hi' }, state, LIMITS, AT);
    expect(asked).toEqual([]);
  });
});
