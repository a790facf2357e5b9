import { ManualClock } from '../../src/common/clock';
import { AppConfig } from '../../src/config/app-config';
import { generateSigningKey, SigningKey } from '../../src/identity/signing-key';
import { TestApp } from '../support/test-app';

const TEXT = 'Join my server at example dot com';
const enc = encodeURIComponent;

function saySigned(key: SigningKey, room: string, nonce: number, text: string): string {
  const sig = key.sign(`${room}|${nonce}|${text}`);
  return `/r/${room}/say-signed/${key.did}/${sig}/${nonce}/${enc(text)}`;
}

describe('duplicate filter through HTTP', () => {
  let t: TestApp;
  let clock: ManualClock;
  const start = async (overrides: Partial<AppConfig> = {}): Promise<void> => {
    clock = new ManualClock();
    t = await TestApp.start(overrides, clock);
  };
  afterEach(() => t.close());

  it('takes five copies in the window, refuses the sixth with the five-line 422, and forgets after 60 s', async () => {
    await start();
    for (let i = 0; i < 5; i++) {
      expect((await t.getPath(`/r/lobby/say/bot${i}/${enc(TEXT)}`)).status).toBe(200);
      clock.advanceMs(1_000);
    }
    const refused = await t.getPath(`/r/lobby/say/bot9/${enc(TEXT)}?format=json`);
    expect(refused.status).toBe(422);
    expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.headers['retry-after']).toBeUndefined();
    const lines = refused.body.split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(
      '422 duplicate text: /r/lobby already holds 5 copies of this text from the last 60s, and more are ' +
        'refused until the oldest leaves that window.',
    );
    expect(lines[1]).toMatch(/^This is not a rate limit/);
    expect(lines[2]).toMatch(/reply to someone.*note.*bridge/);
    expect(lines[3]).toMatch(
      /\/patterns\.md §7.*\/interop\.md.*dupe_filter_seconds.*dupe_max_copies.*\/config/,
    );
    const ref = /^optional: add &ref=(422-([0-9a-f]{1,8})-[0-9a-f]{4}) to your next requests\. /.exec(
      lines[4],
    );
    expect(ref).not.toBeNull();
    expect(parseInt(ref![2], 16)).toBe(Math.floor(clock.nowMs() / 1000));
    expect((await t.getPath(`/r/lobby/say/bot9/${enc(TEXT)}`)).status).toBe(422); // same bytes, same answer
    expect((await t.getPath(`/r/lobby/say/bot9/${enc(`${TEXT} ref=${ref![1]}`)}`)).status).toBe(422);
    expect((await t.getPath(`/r/elsewhere/say/bot9/${enc(TEXT)}`)).status).toBe(200); // per room

    clock.advanceMs(55_001); // the first copy is now 60.001 s old: one slot frees
    expect((await t.getPath(`/r/lobby/say/bot9/${enc(TEXT)}`)).status).toBe(200);
    expect((await t.getPath(`/r/lobby/say/bot9/${enc(TEXT)}`)).status).toBe(422);
  });

  it('keys every lane on the normalised text: case, spacing, invisibles and compatibility forms fold', async () => {
    await start({ dupeMaxCopies: 3 });
    const key = generateSigningKey();
    expect((await t.getPath(`/r/mix/say/a/${enc(TEXT)}`)).status).toBe(200);
    expect((await t.post('/r/mix', { from: 'b', text: `  ${TEXT.toUpperCase()}\u200b\n` })).status).toBe(200);
    expect((await t.getPath(saySigned(key, 'mix', 1, TEXT.replace('server', 'ｓｅｒｖｅｒ')))).status).toBe(
      200,
    );
    expect((await t.post('/r/mix', { from: 'c', text: TEXT.replace(/ /g, '   ') })).status).toBe(422);
    const sig = key.sign(`mix|2|${TEXT}`);
    const signedPost = await t.post('/r/mix', { did: key.did, sig, nonce: '2', text: TEXT });
    expect(signedPost.status).toBe(422);
  });

  it('never filters short texts, and a 0 window turns the filter off', async () => {
    await start({ dupeMaxCopies: 1 });
    for (let i = 0; i < 4; i++) expect((await t.getPath('/r/chat/say/a/ok%20thanks')).status).toBe(200);
    await t.close();
    await start({ dupeMaxCopies: 1, dupeFilterSeconds: 0 });
    for (let i = 0; i < 4; i++) expect((await t.getPath(`/r/chat/say/a/${enc(TEXT)}`)).status).toBe(200);
  });

  it('counts only accepted copies: a failed append releases its reservation', async () => {
    await start({ dupeMaxCopies: 2 });
    for (let i = 0; i < 5; i++) expect((await t.getPath(`/r/r/say/BAD/${enc(TEXT)}`)).status).toBe(400);
    const key = generateSigningKey();
    expect((await t.getPath(saySigned(key, 'r', 5, TEXT))).status).toBe(200);
    expect((await t.getPath(saySigned(key, 'r', 5, TEXT))).body).toMatch(
      /^400 nonce 5 is not greater than 5/,
    );
    expect((await t.getPath(`/r/r/say/ok/${enc(TEXT)}`)).status).toBe(200); // copy 2 of 2
    expect((await t.getPath(`/r/r/say/ok/${enc(TEXT)}`)).status).toBe(422);
  });

  it('runs at its place in each lane', async () => {
    await start({ dupeMaxCopies: 1 });
    const key = generateSigningKey();
    expect((await t.getPath(saySigned(key, 'mb-box', 1, TEXT))).status).toBe(200);
    expect((await t.getPath(`/r/mb-box/say/a/${enc(TEXT)}`)).status).toBe(403); // gate before duplicate
    expect((await t.post('/r/mb-box', { from: 'a', text: TEXT })).status).toBe(403);
    expect((await t.getPath(saySigned(key, 'mb-box', 1, TEXT))).status).toBe(422); // before the stale nonce
    const forged = await t.getPath(`/r/mb-box/say-signed/${key.did}/${'A'.repeat(86)}/2/${enc(TEXT)}`);
    expect(forged.body).toMatch(/^403 signature does not verify/); // verification before the duplicate

    expect((await t.getPath(`/r/open/say/a/${enc(TEXT)}`)).status).toBe(200);
    expect((await t.getPath(`/r/open/say/BAD/${enc(TEXT)}`)).status).toBe(422); // before the nick
    expect((await t.post('/r/open', { text: TEXT })).body).toMatch(/^400 bad from: required/); // `from` first
    expect((await t.post('/r/open', { from: 'a', text: TEXT })).status).toBe(422);
  });
});
