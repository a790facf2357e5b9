import { IdempotencyKeyReusedError } from '../../../src/write/idempotency/idempotency-errors';
import { parseIdempotencyKey } from '../../../src/write/idempotency/idempotency-key';
import {
  IdempotentWrite,
  idempotentWrite,
  PriorWrite,
} from '../../../src/write/idempotency/idempotent-write';
import { KeyWindow } from '../../../src/write/idempotency/key-window';
import { PendingKeys } from '../../../src/write/idempotency/pending-keys';

const KEY = '0123456789abcdef-key';

function base(
  overrides: Partial<IdempotentWrite<{ seq: number }, string>>,
): IdempotentWrite<{ seq: number }, string> {
  return {
    key: KEY,
    prior: () => null,
    fingerprint: 'fp-a',
    describe: (entry) => `seq ${entry.seq}`,
    replay: (entry) => `replayed ${entry.seq}`,
    write: () => Promise.resolve('written'),
    progress: () => new Promise(() => undefined),
    ...overrides,
  };
}

describe('idempotentWrite: the first step of every keyed write lane', () => {
  it('writes without a key or when the key names nothing; replays the same content; refuses other content', async () => {
    const applied: PriorWrite<{ seq: number }> = { entry: { seq: 7 }, fingerprint: 'fp-a', pending: null };
    expect(await idempotentWrite(base({ key: undefined, prior: () => applied }))).toBe('written');
    expect(await idempotentWrite(base({}))).toBe('written');
    expect(await idempotentWrite(base({ prior: () => applied }))).toBe('replayed 7');
    await expect(idempotentWrite(base({ prior: () => applied, fingerprint: 'fp-b' }))).rejects.toThrow(
      IdempotencyKeyReusedError,
    );
    await expect(idempotentWrite(base({ prior: () => applied, fingerprint: 'fp-b' }))).rejects.toThrow(
      `${KEY} already belongs to seq 7`,
    );
  });

  it('waits for a pending first attempt to leave the pending keys, looking again only when something happened', async () => {
    // On a shared log a record can be applied (another node's) before this node processes the refusal
    // of its own append: a wait that resolved without the attempt leaving spun on resolved promises and
    // starved the macrotask that would have discarded it. Each look needs the attempt to leave or the
    // read models to move on (a macrotask), never an already-resolved promise.
    const keys = new PendingKeys<{ seq: number; fp: string }>();
    keys.record('id', { seq: 3, fp: 'fp-a' }, 10);
    let looks = 0;
    let applyOne: () => void = () => undefined;
    const result = idempotentWrite(
      base({
        prior: () => {
          if (++looks > 50) throw new Error('spinning');
          return keys.get('id');
        },
        progress: () => new Promise<void>((resolve) => (applyOne = resolve)),
      }),
    );
    setTimeout(() => applyOne(), 10); // another node's record applied: look again, still pending
    setTimeout(() => keys.discard('id', 10), 30); // then the refusal arrives
    expect(await result).toBe('written');
    expect(looks).toBe(3);
  });

  it('replays once a pending first attempt is applied, and fails with the projections', async () => {
    const keys = new PendingKeys<{ seq: number; fp: string }>();
    keys.record('id', { seq: 4, fp: 'fp-a' }, 5);
    let applied = false;
    const prior = () =>
      keys.get('id') ?? (applied ? { entry: { seq: 4 }, fingerprint: 'fp-a', pending: null } : null);
    const waiting = idempotentWrite(base({ prior }));
    setTimeout(() => {
      applied = true;
      keys.settle('id', 5);
    }, 10);
    expect(await waiting).toBe('replayed 4');
    keys.record('id2', { seq: 5, fp: 'fp-a' }, 6);
    const failure = new Error('projection failed');
    await expect(
      idempotentWrite(base({ prior: () => keys.get('id2'), progress: () => Promise.reject(failure) })),
    ).rejects.toBe(failure);
  });
});

describe('KeyWindow: keys bounded by time and number, deterministic', () => {
  it('answers within the window, forgets the oldest past the cap and anything older than the window', () => {
    const window = new KeyWindow<{ at: number }>(60, 3);
    window.put('a', { at: 0 });
    window.put('b', { at: 10e6 });
    expect(window.get('a', 60e6)).toEqual({ at: 0 });
    expect(window.get('a', 61e6)).toBeUndefined(); // held, but its window passed
    window.put('c', { at: 20e6 });
    window.put('d', { at: 30e6 });
    expect(window.toRows().map(([id]) => id)).toEqual(['b', 'c', 'd']); // cap 3
    window.put('e', { at: 75e6 });
    expect(window.toRows().map(([id]) => id)).toEqual(['c', 'd', 'e']); // b (10 s) older than 75 − 60
    const copy = new KeyWindow<{ at: number }>(60, 3);
    copy.restore(window.toRows());
    expect(copy.toRows()).toEqual(window.toRows());
  });
});

describe('parseIdempotencyKey', () => {
  it('takes the header (quoted or not) or the parameter, and refuses anything outside the grammar', () => {
    expect(parseIdempotencyKey(undefined, undefined)).toBeUndefined();
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"', undefined)).toBe(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(parseIdempotencyKey(undefined, '01JDQ4Z9YJ5V8X2K3M4N5P6Q7R')).toBe('01JDQ4Z9YJ5V8X2K3M4N5P6Q7R');
    expect(() => parseIdempotencyKey('x'.repeat(15), undefined)).toThrow(/^bad Idempotency-Key: /);
    expect(() => parseIdempotencyKey(undefined, 'x'.repeat(129))).toThrow(/^bad idempotency_key: /);
    expect(() => parseIdempotencyKey(undefined, 'with/a/slash-0000')).toThrow(/A-Z a-z 0-9/);
    expect(() => parseIdempotencyKey('a'.repeat(16), 'b'.repeat(16))).toThrow(/differ/);
    expect(parseIdempotencyKey('a'.repeat(16), 'a'.repeat(16))).toBe('a'.repeat(16));
  });
});
