import { NoteConditions } from '../../../src/notes/note-conditions';
import { decideNoteWrite, NoteLimits, NoteWriteState } from '../../../src/notes/note-write.decider';

// Given a note state, when a write is decided, then these events and this answer (or this refusal).
const AT = 1_767_225_600_000_000;
const NoConditions: NoteConditions = { ifValue: null, ifAbsent: false };
const LIMITS: NoteLimits = { caps: { perNamespace: 2, total: 3 }, budgetBytes: 100, idleDays: 7 };

function given(state: Partial<NoteWriteState> = {}): NoteWriteState {
  return {
    current: null,
    nonceCounter: null,
    hasAllowList: false,
    storedBytes: 0,
    inNamespace: 0,
    total: 0,
    ...state,
  };
}

const write = (value: string, conditions = NoConditions) => ({ ns: 'team', key: 'color', value, conditions });

describe('decideNoteWrite (given a note state, when a write arrives)', () => {
  it('writes a new note and answers its size and time', () => {
    const decision = decideNoteWrite(write('teal'), given(), LIMITS, AT);
    expect(decision).toEqual({
      events: [{ type: 'note.written', ns: 'team', key: 'color', value: 'teal', at: AT }],
      ack: { ns: 'team', key: 'color', bytes: 4, at: AT },
    });
  });

  it('refuses a bad name before anything else', () => {
    expect(() => decideNoteWrite({ ...write('x'), ns: 'Bad Name' }, given(), LIMITS, AT)).toThrow();
  });

  it('refuses if-absent when the note exists (409) and if-value when it changed', () => {
    const current = { value: 'red', lastWriteAt: 1 };
    expect(() =>
      decideNoteWrite(write('teal', { ...NoConditions, ifAbsent: true }), given({ current }), LIMITS, AT),
    ).toThrow(/note team\/color already exists/);
    expect(() =>
      decideNoteWrite(write('teal', { ...NoConditions, ifValue: 'blue' }), given({ current }), LIMITS, AT),
    ).toThrow(/changed since you read it/);
    expect(
      'ack' in
        decideNoteWrite(write('teal', { ...NoConditions, ifValue: 'red' }), given({ current }), LIMITS, AT),
    ).toBe(true);
  });

  it('refuses a new note past the per-namespace and the total caps; overwrites always proceed', () => {
    expect(() => decideNoteWrite(write('x'), given({ inNamespace: 2 }), LIMITS, AT)).toThrow(
      /note limit reached/,
    );
    expect(() => decideNoteWrite(write('x'), given({ total: 3 }), LIMITS, AT)).toThrow(/global note limit/);
    const current = { value: 'y', lastWriteAt: 1 };
    expect(
      'ack' in decideNoteWrite(write('x'), given({ current, inNamespace: 2, total: 3 }), LIMITS, AT),
    ).toBe(true);
  });

  it('refuses a value that grows the stored bytes past the budget, but not a shorter overwrite', () => {
    expect(() => decideNoteWrite(write('abcdef'), given({ storedBytes: 95 }), LIMITS, AT)).toThrow(
      /note storage limit reached/,
    );
    const current = { value: 'abcdefgh', lastWriteAt: 1 };
    expect('ack' in decideNoteWrite(write('abc'), given({ current, storedBytes: 100 }), LIMITS, AT)).toBe(
      true,
    );
  });

  it('burns the ownership nonce before the write, and keeps the burn when the write is then refused', () => {
    const signed = { did: 'did:key:z6Mk', nonce: '7' };
    const claim = {
      ns: 'room-owners',
      key: 'mb-box',
      value: 'did:key:z6Mk',
      conditions: NoConditions,
      signed,
    };
    const burn = { type: 'note.written', ns: 'room-nonce', key: 'mb-box', value: '7', at: AT };
    const ok = decideNoteWrite(claim, given({ nonceCounter: '6' }), LIMITS, AT);
    expect(ok.events).toEqual([
      burn,
      { ...burn, ns: 'room-owners', value: 'did:key:z6Mk', signer: 'did:key:z6Mk' },
    ]);
    const refused = decideNoteWrite(
      { ...claim, conditions: { ...NoConditions, ifAbsent: true } },
      given({ nonceCounter: '6', current: { value: 'did:key:other', lastWriteAt: 1 } }),
      LIMITS,
      AT,
    );
    expect(refused.events).toEqual([burn]);
    expect('refusal' in refused && refused.refusal.message).toMatch(
      /note room-owners\/mb-box already exists/,
    );
  });

  it('refuses a spent nonce outright (403): nothing is appended', () => {
    const signed = { did: 'did:key:z6Mk', nonce: '7' };
    const claim = { ns: 'room-owners', key: 'mb-box', value: 'x', conditions: NoConditions, signed };
    expect(() => decideNoteWrite(claim, given({ nonceCounter: '7' }), LIMITS, AT)).toThrow(
      /nonce 7 was already used/,
    );
  });

  it('resets an existing allow-list to none on a first claim', () => {
    const signed = { did: 'did:key:z6Mk', nonce: '7' };
    const claim = {
      ns: 'room-owners',
      key: 'mb-box',
      value: 'x',
      conditions: NoConditions,
      signed,
      resetAllowList: true,
    };
    const decision = decideNoteWrite(claim, given({ hasAllowList: true }), LIMITS, AT);
    expect(decision.events.map((e) => `${e.ns}=${e.value}`)).toEqual([
      'room-nonce=7',
      'room-allow=none',
      'room-owners=x',
    ]);
  });
});
