import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../src/common/clock';
import { decodeEvent } from '../../src/events/event-codec';
import { generateSigningKey } from '../../src/identity/signing-key';
import { EVENT_LOG } from '../../src/log/log.tokens';
import { EventLog } from '../../src/log/event-log';
import { saySignedUrl, setSignedUrl, signedNoteBody } from '../support/notes-kit';
import { json, Reply, TestApp } from '../support/test-app';

const KEY = (n: number) => `retry-key-0000-${String(n).padStart(4, '0')}`;
const withKey = (key: string) => ({ 'content-type': 'application/json', 'idempotency-key': key });

describe('idempotency keys on every write lane (TestApp: the whole module graph, the real file log)', () => {
  let t: TestApp;
  afterEach(() => t.close());

  const posted = (reply: Reply) => json(reply).posted as { seq: number; text: string; nonce?: number };
  const lines = async (room: string) =>
    (await t.getPath(`/r/${room}/export`)).body.split('\n').filter(Boolean);
  const postKeyed = (path: string, body: unknown, key: string) =>
    t.request('POST', path, JSON.stringify(body), withKey(key));

  it('answers a retry on each message lane like the first write, appending nothing', async () => {
    t = await TestApp.start();
    const signer = generateSigningKey();
    const cases: Array<[string, () => Promise<Reply>]> = [
      ['say', () => t.getPath(`/r/lanes/say/ann/hello%20say?format=json&idempotency_key=${KEY(1)}`)],
      ['post', () => postKeyed('/r/lanes?format=json', { from: 'ann', text: 'hello post' }, KEY(2))],
      [
        'say-signed',
        () =>
          t.getPath(
            `${saySignedUrl(signer, 'lanes', '7', 'signed get')}?format=json&idempotency_key=${KEY(3)}`,
          ),
      ],
      [
        'post-signed',
        () =>
          postKeyed(
            '/r/lanes?format=json',
            { did: signer.did, nonce: '8', sig: signer.sign('lanes|8|signed post'), text: 'signed post' },
            KEY(4),
          ),
      ],
    ];
    for (const [lane, send] of cases) {
      const first = await send();
      expect([lane, first.status, first.headers['idempotent-replayed']]).toEqual([lane, 200, undefined]);
      const again = await send(); // a signed retry reuses its nonce: without a key, a stale-nonce 400
      expect([lane, again.status, again.headers['idempotent-replayed']]).toEqual([lane, 200, 'true']);
      expect(posted(again)).toEqual(posted(first));
    }
    // A signed retry signed again with a higher nonce is still the same message: the nonce is a replay
    // counter, not content.
    const resigned = await postKeyed(
      '/r/lanes?format=json',
      { did: signer.did, nonce: '99', sig: signer.sign('lanes|99|signed post'), text: 'signed post' },
      KEY(4),
    );
    expect([resigned.headers['idempotent-replayed'], posted(resigned).nonce]).toEqual(['true', 8]);
    expect(await lines('lanes')).toHaveLength(4);
    const text = await t.getPath(`/r/lanes/say/ann/hello%20say?idempotency_key=${KEY(1)}`);
    expect(text.body.split('\n')[0]).toBe('# room lanes  messages 4  range 1..4'); // the room as it is now
  });

  it('answers a retry on each note lane like the first write, burning no second nonce', async () => {
    t = await TestApp.start();
    const owner = generateSigningKey();
    const first = await t.getPath(`/kv/ns/a/set/one?idempotency_key=${KEY(1)}`);
    expect((await t.getPath(`/kv/ns/a/set/one?idempotency_key=${KEY(1)}`)).body).toBe(first.body);
    await t.getPath('/kv/ns/a/set/two'); // someone else moves the note on
    const cas = await postKeyed('/kv/ns/b', { value: 'first', if_absent: true }, KEY(2));
    const casAgain = await postKeyed('/kv/ns/b', { value: 'first', if_absent: true }, KEY(2));
    expect([cas.status, casAgain.status, casAgain.body]).toEqual([200, 200, cas.body]); // not a 409
    const claim = setSignedUrl(owner, { ns: 'room-owners', key: 'd-mine', nonce: '5', value: owner.did });
    const claimed = await t.getPath(`${claim}?idempotency_key=${KEY(3)}`);
    const reclaimed = await t.getPath(`${claim}?idempotency_key=${KEY(3)}`);
    expect([claimed.status, reclaimed.status, reclaimed.headers['idempotent-replayed']]).toEqual([
      200,
      200,
      'true',
    ]);
    expect(reclaimed.body).toBe(claimed.body);
    const allow = signedNoteBody(owner, { ns: 'room-allow', key: 'd-mine', nonce: '6', value: owner.did });
    const allowed = await postKeyed('/kv/room-allow/d-mine', allow, KEY(4));
    expect((await postKeyed('/kv/room-allow/d-mine', allow, KEY(4))).body).toBe(allowed.body);
    expect((await t.getPath('/kv/room-nonce/d-mine')).body.trimEnd().split('\n').pop()).toBe('6');
  });

  it('refuses the same key with other content, naming the original write, and scopes keys to the writer', async () => {
    t = await TestApp.start();
    const first = await t.getPath(`/r/scope/say/ann/original?format=json&idempotency_key=${KEY(1)}`);
    const reused = await t.getPath(`/r/scope/say/ann/different?idempotency_key=${KEY(1)}`);
    expect(reused.status).toBe(422);
    expect(reused.body).toMatch(
      new RegExp(
        `^422 idempotency key reused: ${KEY(1)} already belongs to /r/scope seq ${posted(first).seq} \\(`,
      ),
    );
    const otherNick = await t.getPath(`/r/scope/say/bob/original?format=json&idempotency_key=${KEY(1)}`);
    expect([otherNick.status, otherNick.headers['idempotent-replayed'], posted(otherNick).seq]).toEqual([
      200,
      undefined,
      2,
    ]);
    const note = await postKeyed('/kv/ns/k', { value: 'v1' }, KEY(2));
    expect(note.status).toBe(200);
    const noteReused = await postKeyed('/kv/ns/k', { value: 'v2' }, KEY(2));
    expect([noteReused.status, noteReused.body.startsWith('422 idempotency key reused:')]).toEqual([
      422,
      true,
    ]);
    expect(noteReused.body).toContain('/kv/ns/k at ');
  });

  it('does not consume the key of a refused write', async () => {
    t = await TestApp.start({ dupeMaxCopies: 1 });
    expect((await t.getPath(`/r/mb-box/say/ann/hello?idempotency_key=${KEY(1)}`)).status).toBe(403);
    expect((await t.getPath(`/r/free/say/Ann/hello?idempotency_key=${KEY(1)}`)).status).toBe(400);
    await t.getPath('/r/free/say/ann/this%20text%20is%20long%20enough%20to%20filter');
    const duplicate = await t.getPath(
      `/r/free/say/ann/this%20text%20is%20long%20enough%20to%20filter?idempotency_key=${KEY(1)}`,
    );
    expect(duplicate.status).toBe(422);
    const written = await t.getPath(`/r/free/say/ann/hello?format=json&idempotency_key=${KEY(1)}`);
    expect([written.status, written.headers['idempotent-replayed']]).toEqual([200, undefined]);
  });

  it('gives concurrent retries one write, and keeps keys across a restart, within the window and capacity', async () => {
    const clock = new ManualClock();
    t = await TestApp.start({ idempotencyWindowSeconds: 600, idempotencyMaxKeys: 3 }, clock);
    const burst = await Promise.all(
      Array.from({ length: 6 }, () =>
        postKeyed('/r/burst?format=json', { from: 'ann', text: 'once' }, KEY(1)),
      ),
    );
    expect(new Set(burst.map((r) => posted(r).seq))).toEqual(new Set([1]));
    expect(burst.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    await t.restart(); // from the final checkpoint
    const afterRestart = await postKeyed('/r/burst?format=json', { from: 'ann', text: 'once' }, KEY(1));
    expect([afterRestart.headers['idempotent-replayed'], posted(afterRestart).seq]).toEqual(['true', 1]);
    await t.close({ keepData: true });
    rmSync(join(t.root, 'checkpoints'), { recursive: true, force: true }); // rebuilt by replaying the log
    t = await TestApp.start({ idempotencyWindowSeconds: 600, idempotencyMaxKeys: 3 }, clock, t.root);
    const replayed = await postKeyed('/r/burst?format=json', { from: 'ann', text: 'once' }, KEY(1));
    expect([replayed.headers['idempotent-replayed'], posted(replayed).seq]).toEqual(['true', 1]);
    for (let i = 2; i <= 4; i++) await postKeyed('/r/burst', { from: 'ann', text: `t${i}` }, KEY(i));
    const evicted = await postKeyed('/r/burst?format=json', { from: 'ann', text: 'once' }, KEY(1));
    expect([evicted.headers['idempotent-replayed'], posted(evicted).seq]).toEqual([undefined, 5]); // capacity 3
    clock.advanceMs(601_000);
    const expired = await postKeyed('/r/burst?format=json', { from: 'ann', text: 't4' }, KEY(4));
    expect([expired.headers['idempotent-replayed'], posted(expired).seq]).toEqual([undefined, 6]); // window
  });

  it('logs the key in the event only, never in the stored record, and says so when the record left the ring', async () => {
    t = await TestApp.start({ ringBytes: 4096 });
    await t.getPath(`/r/ring/say/ann/keyed?idempotency_key=${KEY(1)}`);
    await t.getPath('/r/ring/say/ann/unkeyed');
    expect((await t.getPath('/r/ring/export')).body).not.toContain('retry-key');
    const log = t.app.get<EventLog>(EVENT_LOG);
    const appended = [];
    for await (const record of log.read(0)) appended.push(decodeEvent(record.payload));
    const messages = appended.filter((e) => e.type === 'message.appended' && e.room === 'ring');
    expect(messages.map((e) => Object.keys(e))).toEqual([
      ['type', 'room', 'seq', 'at', 'record', 'idempotencyKey'],
      ['type', 'room', 'seq', 'at', 'record'],
    ]);
    for (let i = 0; i < 60; i++) await t.getPath(`/r/ring/say/ann/filling%20the%20ring%20${i}`);
    const gone = await t.getPath(`/r/ring/say/ann/keyed?idempotency_key=${KEY(1)}`);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatch(new RegExp(`^410 already written: ${KEY(1)} belongs to /r/ring seq 1 \\(`));
  });

  it('refuses a key outside its grammar with a 400 naming where it came from', async () => {
    t = await TestApp.start();
    const query = await t.getPath('/r/x/say/ann/hi?idempotency_key=short');
    expect([
      query.status,
      query.body.startsWith("400 bad idempotency_key: 'short' is not an idempotency key"),
    ]).toEqual([400, true]);
    const header = await t.request(
      'POST',
      '/r/x',
      '{"from":"a","text":"b"}',
      withKey('has space in it 12345'),
    );
    expect(header.body.startsWith("400 bad Idempotency-Key: 'has space in it 12345'")).toBe(true);
    const quoted = await t.request('POST', '/r/x', '{"from":"a","text":"b"}', withKey(`"${KEY(9)}"`));
    expect(quoted.status).toBe(200); // a structured-field string may come quoted
    expect((await t.getPath('/r/x?format=json')).status).toBe(200);
  });
});
