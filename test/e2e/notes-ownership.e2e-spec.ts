import { ManualClock } from '../../src/common/clock';
import { abbreviateDid } from '../../src/identity/did-key';
import { generateSigningKey } from '../../src/identity/signing-key';
import { NoteWriteService } from '../../src/notes/note-write.service';
import { NotesReaperService } from '../../src/notes/notes-reaper.service';
import { lastLine, LOOSE_RATES, saySignedUrl, setSignedUrl, signedNoteBody } from '../support/notes-kit';
import { json, Reply, TestApp } from '../support/test-app';

const alice = generateSigningKey();
const bob = generateSigningKey();
const carol = generateSigningKey();
const DAY_MS = 86_400_000;
const head = (reply: Reply, prefix: string): [number, string] => [
  reply.status,
  reply.body.slice(0, prefix.length),
];

describe('notes: ownership of d- rooms', () => {
  let t: TestApp;
  let clock: ManualClock;
  const note = async (path: string): Promise<string | null> => {
    const reply = await t.getPath(path);
    return reply.status === 200 ? lastLine(reply.body) : null;
  };
  const claim = (key: typeof alice, room: string, nonce: string, query?: string): Promise<Reply> =>
    t.getPath(setSignedUrl(key, { ns: 'room-owners', key: room, nonce, value: key.did, query }));
  const allow = (key: typeof alice, room: string, nonce: string, value: string): Promise<Reply> =>
    t.post(`/kv/room-allow/${room}`, signedNoteBody(key, { ns: 'room-allow', key: room, nonce, value }));
  const say = (key: typeof alice, room: string, nonce: string): Promise<Reply> =>
    t.getPath(saySignedUrl(key, room, nonce, `signed hello number ${nonce}`));

  beforeEach(async () => {
    clock = new ManualClock();
    t = await TestApp.start(LOOSE_RATES, clock);
  });
  afterEach(() => t.close());

  it('claims a d- room signed by the claimed key; then only listed keys write, each nonce burned once', async () => {
    const claimed = await claim(alice, 'd-team', '1');
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatch(/^ok room-owners\/d-team 56B \S+ signed by z6Mk.+$/m);
    expect(claimed.body.trimEnd().endsWith(` signed by ${abbreviateDid(alice.did)}`)).toBe(true);
    expect(await note('/kv/room-owners/d-team')).toBe(alice.did);
    expect(await note('/kv/room-nonce/d-team')).toBe('1');

    const unsigned = await t.getPath('/r/d-team/say/anon/hello');
    expect(unsigned.status).toBe(403);
    expect(unsigned.body).toContain('/kv/room-owners/d-team');
    expect(unsigned.body).toContain('/kv/room-allow/d-team');
    expect((await t.post('/r/d-team', { from: 'anon', text: 'hello' })).status).toBe(403);
    const unlisted = await say(bob, 'd-team', '1');
    expect(head(unlisted, `403 ${abbreviateDid(bob.did)} is not listed`)).toEqual([
      403,
      `403 ${abbreviateDid(bob.did)} is not listed`,
    ]);
    expect(unlisted.body).toContain('/kv/room-allow/d-team');
    expect((await say(alice, 'd-team', '1')).status).toBe(200);

    const listed = await allow(alice, 'd-team', '2', `${bob.did}  ${carol.did}`);
    expect(listed.status).toBe(200);
    expect((await say(bob, 'd-team', '1')).status).toBe(200);
    expect((await say(carol, 'd-team', '1')).status).toBe(200);
    for (const reused of ['2', '1', '02']) {
      const replay = await allow(alice, 'd-team', reused, bob.did);
      expect(head(replay, `403 nonce ${reused} was already used`)).toEqual([
        403,
        `403 nonce ${reused} was already used`,
      ]);
      expect(replay.body).toContain('/kv/room-nonce/d-team');
    }
    const badToken = await allow(alice, 'd-team', '3', `${bob.did} none`);
    expect(head(badToken, "400 bad room-allow value: 'none' is not a did:key")).toEqual([
      400,
      "400 bad room-allow value: 'none' is not a did:key",
    ]);
    expect(await note('/kv/room-nonce/d-team')).toBe('2'); // the gate refused before the burn
    expect(await note('/kv/room-allow/d-team')).toBe(`${bob.did}  ${carol.did}`);

    expect(
      head(
        await t.getPath(`/kv/room-owners/d-team/set/${bob.did}`),
        '403 /kv/room-owners/d-team is already owned',
      ),
    ).toEqual([403, '403 /kv/room-owners/d-team is already owned']);
    expect(
      head(
        await t.getPath(`/kv/room-allow/d-team/set/${bob.did}`),
        "403 /kv/room-allow/d-team takes only the owner's",
      ),
    ).toEqual([403, "403 /kv/room-allow/d-team takes only the owner's"]);
    expect((await t.getPath('/kv/room-nonce/d-team/set/99')).status).toBe(403);
    const signedNonce = await t.getPath(
      setSignedUrl(alice, { ns: 'room-nonce', key: 'd-team', nonce: '9', value: '9' }),
    );
    expect(signedNonce.status).toBe(403);
    expect(await note('/kv/room-nonce/d-team')).toBe('2');
  });

  it('refuses claims of rooms with messages, of other keys, of non-d rooms, and of non-key values', async () => {
    expect((await t.getPath('/r/d-busy/say/anon/first')).status).toBe(200);
    const busy = await claim(alice, 'd-busy', '1');
    expect(head(busy, '403 /r/d-busy already has messages (last_seq 1)')).toEqual([
      403,
      '403 /r/d-busy already has messages (last_seq 1)',
    ]);
    expect((await t.getPath('/r/d-busy/say/anon/still%20open')).status).toBe(200);
    const proxy = await t.getPath(
      setSignedUrl(bob, { ns: 'room-owners', key: 'd-new', nonce: '1', value: alice.did }),
    );
    expect(head(proxy, '403 a claim must be signed by the key it names')).toEqual([
      403,
      '403 a claim must be signed by the key it names',
    ]);
    for (const room of ['team', 'lobby', 'x-d-y']) {
      expect(head(await claim(alice, room, '1'), `403 /kv/room-owners/${room}: only d- rooms`)).toEqual([
        403,
        `403 /kv/room-owners/${room}: only d- rooms`,
      ]);
    }
    const notKey = await t.getPath(
      setSignedUrl(alice, { ns: 'room-owners', key: 'd-new', nonce: '1', value: 'me' }),
    );
    expect(head(notKey, "400 bad room-owners value: 'me'")).toEqual([400, "400 bad room-owners value: 'me'"]);
    const noOwner = await allow(alice, 'd-new', '1', bob.did);
    expect(head(noOwner, '403 /kv/room-allow/d-new: d-new has no owner yet')).toEqual([
      403,
      '403 /kv/room-allow/d-new: d-new has no owner yet',
    ]);
    expect(await note('/kv/room-nonce/d-new')).toBeNull();
    expect(await note('/kv/room-owners/d-new')).toBeNull();
  });

  it('hands a room over with the owner signature only; the counter is shared and keeps counting', async () => {
    expect((await claim(alice, 'd-h', '5')).status).toBe(200);
    const hijack = await t.getPath(
      setSignedUrl(bob, { ns: 'room-owners', key: 'd-h', nonce: '6', value: bob.did }),
    );
    expect(head(hijack, '403 /kv/room-owners/d-h is already owned')).toEqual([
      403,
      '403 /kv/room-owners/d-h is already owned',
    ]);
    const byOther = await allow(bob, 'd-h', '6', bob.did);
    expect(head(byOther, `403 ${abbreviateDid(bob.did)} does not own d-h`)).toEqual([
      403,
      `403 ${abbreviateDid(bob.did)} does not own d-h`,
    ]);
    const handOver = await t.post(
      '/kv/room-owners/d-h?format=json',
      signedNoteBody(alice, { ns: 'room-owners', key: 'd-h', nonce: '6', value: bob.did }),
    );
    expect(handOver.status).toBe(200);
    expect(Object.keys(json(handOver))).toEqual(['ns', 'key', 'bytes', 'ts']);
    expect(await note('/kv/room-owners/d-h')).toBe(bob.did);
    expect((await say(alice, 'd-h', '1')).status).toBe(403);
    expect((await say(bob, 'd-h', '1')).status).toBe(200);
    expect((await allow(bob, 'd-h', '6', alice.did)).status).toBe(403); // 6 was burned by the hand-over
    expect((await allow(bob, 'd-h', '7', alice.did)).status).toBe(200);
    expect((await say(alice, 'd-h', '2')).status).toBe(200);
    expect(await note('/kv/room-nonce/d-h')).toBe('7');
  });

  it('burns the nonce even when the write then loses its condition, and never refunds it', async () => {
    const lost = await claim(alice, 'd-c', '0010', 'if=someone');
    expect(lost.status).toBe(409);
    expect(lost.body.split('\n')[0]).toBe('409 note room-owners/d-c changed since you read it');
    expect(await note('/kv/room-nonce/d-c')).toBe('0010'); // stored as sent
    expect((await claim(alice, 'd-c', '10')).status).toBe(403);
    expect((await claim(alice, 'd-c', '11', 'if_absent=1')).status).toBe(200);
    const again = await claim(alice, 'd-c', '12', 'if_absent=1');
    expect([again.status, lastLine(again.body)]).toEqual([409, alice.did]);
    expect(await note('/kv/room-nonce/d-c')).toBe('12');
  });

  it('resets a pre-existing allow-list to none on the first claim, so a new owner inherits nobody', async () => {
    expect((await claim(alice, 'd-sq', '1')).status).toBe(200);
    clock.advanceMs(4 * DAY_MS);
    expect((await allow(alice, 'd-sq', '2', bob.did)).status).toBe(200);
    clock.advanceMs(4 * DAY_MS); // the owner note is idle 8 days, the allow-list and the counter 4
    expect(await t.get(NotesReaperService).pass()).toBe(1);
    expect(await note('/kv/room-owners/d-sq')).toBeNull();
    expect(await note('/kv/room-allow/d-sq')).toBe(bob.did);
    expect((await claim(carol, 'd-sq', '2')).status).toBe(403); // the counter outlived the owner
    expect((await claim(carol, 'd-sq', '3')).status).toBe(200);
    expect(await note('/kv/room-allow/d-sq')).toBe('none');
    expect((await say(bob, 'd-sq', '1')).status).toBe(403);
    expect((await say(carol, 'd-sq', '1')).status).toBe(200);
  });

  it('locks a room whose owner note is not a did:key (fail closed)', async () => {
    const conditions = { ifValue: null, ifAbsent: false };
    await t
      .get(NoteWriteService)
      .write({ ns: 'room-owners', key: 'd-locked', value: 'legacy-owner', conditions });
    expect((await t.getPath('/r/d-locked/say/anon/hello')).status).toBe(403);
    expect((await say(alice, 'd-locked', '1')).status).toBe(403);
    const handOver = await t.getPath(
      setSignedUrl(alice, { ns: 'room-owners', key: 'd-locked', nonce: '1', value: alice.did }),
    );
    expect(head(handOver, "403 /kv/room-owners/d-locked is already owned by 'legacy-owner'")).toEqual([
      403,
      "403 /kv/room-owners/d-locked is already owned by 'legacy-owner'",
    ]);
  });
});
