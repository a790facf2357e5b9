import fc from 'fast-check';
import { signingKeyFromSeed, SigningKey } from '../../../../src/identity/signing-key';
import { saySignedUrl, setSignedUrl } from '../../../support/notes-kit';
import { LifecycleModel, NoteCondition } from './lifecycle.model';
import {
  differences,
  NOTE_IDS,
  NOTE_KEYS,
  OWNED_ROOM,
  parse,
  readNote,
  ROOMS,
  settled,
  viewOf,
} from './lifecycle.observations';
import { LifecycleSystem, Reply } from './lifecycle.system';

/** One step of a generated run: do it to the real service, check its reply, update the model. */
type Command = fc.AsyncCommand<LifecycleModel, LifecycleSystem>;

const KEYS: Readonly<Record<'alice' | 'bob', SigningKey>> = {
  alice: signingKeyFromSeed('a1'.repeat(32)),
  bob: signingKeyFromSeed('b0'.repeat(32)),
};
type Signer = keyof typeof KEYS;
const HOUR_MS = 3_600_000;
const enc = encodeURIComponent;
let written = 0;
/** Texts and values unique in a run (a counter), with characters the URL and JSON must carry. */
const words = fc.constantFrom('hello', 'sécond ☃', 'two words', 'quote " and \\ slash', '#hash ?q&x');
const unique = (word: string): string => `${word} ${++written}`;

/** A message write and what its reply must say: the record posted, the room's generation. */
async function expectWritten(
  model: LifecycleModel,
  reply: Reply,
  room: string,
  from: string,
  text: string,
  signer: string | undefined,
): Promise<void> {
  if (!model.mayWrite(room, signer)) {
    expect(reply.status).toBe(403);
    return;
  }
  const body = parse(reply);
  const expected = model.append(room, from, text);
  const posted = body.posted as { seq: number; from: string; text: string };
  expect({ seq: posted.seq, from: posted.from, text: posted.text }).toEqual({
    seq: expected.seq,
    from,
    text,
  });
  expect([body.generation, body.last_seq]).toEqual([model.room(room).gen, expected.seq]);
}

class Say implements Command {
  constructor(
    readonly room: string,
    readonly lane: 'get' | 'post',
    readonly nick: string,
    readonly word: string,
  ) {}
  check = (): boolean => true;
  async run(model: LifecycleModel, real: LifecycleSystem): Promise<void> {
    const text = unique(this.word);
    const reply =
      this.lane === 'get'
        ? await real.get(`/r/${this.room}/say/${this.nick}/${enc(text)}?format=json`)
        : await real.post(`/r/${this.room}?format=json`, { from: this.nick, text });
    await expectWritten(model, reply, this.room, this.nick, text, undefined);
  }
  toString = (): string => `say(${this.room}, ${this.lane}, ${this.nick}, ${JSON.stringify(this.word)})`;
}

class SaySigned implements Command {
  constructor(
    readonly room: string,
    readonly signer: Signer,
    readonly word: string,
  ) {}
  check = (): boolean => true;
  async run(model: LifecycleModel, real: LifecycleSystem): Promise<void> {
    const text = unique(this.word);
    const key = KEYS[this.signer];
    const reply = await real.get(`${saySignedUrl(key, this.room, model.nextNonce(), text)}?format=json`);
    await expectWritten(model, reply, this.room, key.did, text, key.did);
  }
  toString = (): string => `saySigned(${this.room}, ${this.signer}, ${JSON.stringify(this.word)})`;
}

class ReadRoom implements Command {
  constructor(
    readonly room: string,
    readonly since: number | undefined,
    readonly limit: number,
  ) {}
  check = (): boolean => true;
  async run(model: LifecycleModel, real: LifecycleSystem): Promise<void> {
    const since = this.since === undefined ? '' : `&since=${this.since}`;
    const reply = await real.get(`/r/${this.room}?format=json&limit=${this.limit}${since}`);
    expect(viewOf(parse(reply))).toEqual(model.view(this.room, this.since, this.limit));
  }
  toString = (): string => `read(${this.room}, since ${this.since ?? '-'}, limit ${this.limit})`;
}

type ConditionKind = 'none' | 'absent' | 'current' | 'stale';

class SetNote implements Command {
  constructor(
    readonly key: string,
    readonly lane: 'get' | 'post',
    readonly condition: ConditionKind,
    readonly word: string,
  ) {}
  check = (): boolean => true;
  async run(model: LifecycleModel, real: LifecycleSystem): Promise<void> {
    const value = unique(this.word);
    const condition = this.resolve(model);
    const query =
      condition.kind === 'absent'
        ? '?if_absent=1'
        : condition.kind === 'if'
          ? `?if=${enc(condition.value)}`
          : '';
    const fields =
      condition.kind === 'absent'
        ? { if_absent: true }
        : condition.kind === 'if'
          ? { if: condition.value }
          : {};
    const reply =
      this.lane === 'get'
        ? await real.get(`/kv/ns/${this.key}/set/${enc(value)}${query}`)
        : await real.post(`/kv/ns/${this.key}`, { value, ...fields });
    expect(reply.status).toBe(model.setNote('ns', this.key, value, condition) ? 200 : 409);
  }
  /** `current`: compare-and-set against what the model holds (a value never stored when it holds none). */
  private resolve(model: LifecycleModel): NoteCondition {
    if (this.condition === 'none' || this.condition === 'absent') return { kind: this.condition };
    const current = model.notes.get(`ns/${this.key}`)?.value;
    return {
      kind: 'if',
      value: this.condition === 'current' && current !== undefined ? current : 'never stored',
    };
  }
  toString = (): string =>
    `setNote(${this.key}, ${this.lane}, ${this.condition}, ${JSON.stringify(this.word)})`;
}

class ReadNote implements Command {
  constructor(readonly id: string) {}
  check = (): boolean => true;
  async run(model: LifecycleModel, real: LifecycleSystem): Promise<void> {
    expect(await readNote(real, this.id)).toEqual(model.notes.get(this.id)?.value ?? null);
  }
  toString = (): string => `readNote(${this.id})`;
}

/** A room-owners write: a claim, a hand-over, or (unsigned) one that is always refused (§10.3, §10.4). */
class WriteOwner implements Command {
  constructor(
    readonly signer: Signer | 'unsigned',
    readonly newOwner: Signer,
  ) {}
  check = (): boolean => true;
  async run(model: LifecycleModel, real: LifecycleSystem): Promise<void> {
    const value = KEYS[this.newOwner].did;
    if (this.signer === 'unsigned') {
      expect((await real.get(`/kv/room-owners/${OWNED_ROOM}/set/${enc(value)}`)).status).toBe(403);
      return;
    }
    const key = KEYS[this.signer];
    const url = setSignedUrl(key, { ns: 'room-owners', key: OWNED_ROOM, nonce: model.nextNonce(), value });
    const reply = await real.get(url);
    expect(reply.status).toBe(model.ownerWrite(OWNED_ROOM, key.did, value) ? 200 : 403);
  }
  toString = (): string => `writeOwner(by ${this.signer}, to ${this.newOwner})`;
}

/** A graceful restart, a kill -9 and restart, either optionally hours later: the state must follow. */
class Restart implements Command {
  constructor(
    readonly how: 'graceful' | 'kill9',
    readonly laterByHours: 0 | 1 | 2,
  ) {}
  check = (): boolean => true;
  async run(model: LifecycleModel, real: LifecycleSystem): Promise<void> {
    // A second past the stillborn (1 h) or retention (2 h) window, so each decision is far from its edge.
    const laterByMs = this.laterByHours === 0 ? 0 : this.laterByHours * HOUR_MS + 1000;
    await real.restart(this.how, laterByMs);
    if (laterByMs === 0) return expect(await differences(model, real)).toEqual([]);
    model.advance(laterByMs);
    await settled(model, real);
  }
  toString = (): string => `restart(${this.how}${this.laterByHours ? `, ${this.laterByHours} h later` : ''})`;
}

const rooms = fc.constantFrom(...ROOMS);
const signers = fc.constantFrom<Signer>('alice', 'bob');

/** The commands, weighted so that restarts (seconds each) stay a few per run. */
export const lifecycleCommands: Array<fc.Arbitrary<Command>> = [
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(rooms, fc.constantFrom<'get' | 'post'>('get', 'post'), fc.constantFrom('ann', 'bo-b'), words)
        .map(([room, lane, nick, word]) => new Say(room, lane, nick, word)),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(rooms, signers, words)
        .map(([room, signer, word]) => new SaySigned(room, signer, word)),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(rooms, fc.option(fc.nat(8), { nil: undefined }), fc.constantFrom(1, 2, 200))
        .map(([room, since, limit]) => new ReadRoom(room, since, limit)),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...NOTE_KEYS),
          fc.constantFrom<'get' | 'post'>('get', 'post'),
          fc.constantFrom<ConditionKind>('none', 'absent', 'current', 'stale'),
          words,
        )
        .map(([key, lane, condition, word]) => new SetNote(key, lane, condition, word)),
    },
    { weight: 2, arbitrary: fc.constantFrom(...NOTE_IDS).map((id) => new ReadNote(id)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom<Signer | 'unsigned'>('alice', 'bob', 'unsigned'), signers)
        .map(([signer, to]) => new WriteOwner(signer, to)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom<'graceful' | 'kill9'>('graceful', 'kill9'),
          fc.constantFrom<0 | 1 | 2>(0, 1, 2),
        )
        .map(([how, later]) => new Restart(how, later)),
    },
  ),
];
