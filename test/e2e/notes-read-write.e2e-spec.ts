import { LOOSE_RATES } from '../support/notes-kit';
import { json, Reply, TestApp } from '../support/test-app';

const BANNER_PREFIX = '!! UNTRUSTED CONTENT — ';
const SHAREABLE = 'public, max-age=0, s-maxage=1, stale-while-revalidate=5';
const TS = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z';

/** Status and the first `prefix.length` characters of the body, for order-of-checks tables. */
const head = (reply: Reply, prefix: string): [number, string] => [
  reply.status,
  reply.body.slice(0, prefix.length),
];

describe('notes: reads, listings and unsigned writes', () => {
  let t: TestApp;
  beforeEach(async () => (t = await TestApp.start(LOOSE_RATES)));
  afterEach(() => t.close());

  it('writes with GET set, acknowledges with size and time, and reads back after the banner', async () => {
    const ack = await t.getPath('/kv/myproject/status/set/ready%20to%20go');
    expect(ack.status).toBe(200);
    expect(ack.body).toMatch(new RegExp(`^ok myproject/status 11B ${TS}\n$`));
    expect(ack.headers['cache-control']).toBe('no-store');
    const read = await t.getPath('/kv/myproject/status');
    expect(read.status).toBe(200);
    expect(read.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(read.headers['cache-control']).toBe(SHAREABLE);
    const lines = read.body.split('\n');
    expect(lines[0].startsWith(BANNER_PREFIX)).toBe(true);
    expect(lines.slice(1)).toEqual(['', 'ready to go', '']);
    const asJson = await t.getPath('/kv/myproject/status?format=json'); // no JSON form for a note read
    expect([asJson.headers['content-type'], asJson.body]).toEqual(['text/plain; charset=utf-8', read.body]);
    expect((await t.request('HEAD', '/kv/myproject/status')).status).toBe(200);
  });

  it('acknowledges in JSON with ns, key, bytes and ts, counting UTF-8 bytes of the swept value', async () => {
    const reply = await t.getPath(`/kv/ns/k/set/${encodeURIComponent('\t☃ snow\u200b ')}?format=json`);
    expect(reply.headers['content-type']).toBe('application/json');
    const body = json(reply);
    expect(Object.keys(body)).toEqual(['ns', 'key', 'bytes', 'ts']);
    expect(body).toMatchObject({ ns: 'ns', key: 'k', bytes: 8 });
    expect(reply.body).toMatch(new RegExp(`^\\{"ns":"ns","key":"k","bytes":8,"ts":"${TS}"\\}\n$`));
    expect((await t.getPath('/kv/ns/k')).body.split('\n')[2]).toBe('☃ snow');
  });

  it('overwrites without conditions and keeps free-form values: slashes, plus signs, a final newline', async () => {
    await t.getPath('/kv/ns/k/set/one');
    await t.getPath('/kv/ns/k/set/a/b+c%3Fd');
    expect((await t.getPath('/kv/ns/k')).body.split('\n')[2]).toBe('a/b+c?d');
    await t.getPath('/kv/ns/k/set/trailing%0A');
    expect((await t.getPath('/kv/ns/k')).body.split('\n')[2]).toBe('trailing');
    const inner = await t.getPath('/kv/ns/k/set/in%0Aside');
    expect(inner.status).toBe(404);
    expect(inner.body.startsWith('404 no route matched.')).toBe(true);
  });

  it('answers a missing note with 404 naming the ways to create it', async () => {
    const reply = await t.getPath('/kv/ns/missing');
    expect(reply.status).toBe(404);
    expect(reply.headers['cache-control']).toBe('no-store');
    const lines = reply.body.trimEnd().split('\n');
    expect(lines[0].startsWith('404 no note ns/missing —')).toBe(true);
    expect(reply.body).toContain('/kv/ns/missing/set/<value>');
    expect(reply.body).toContain('?if_absent=1');
    expect(reply.body).toContain('GET /kv/ns ');
  });

  it('lists keys in code-point order, never p- class keys, as text and JSON', async () => {
    for (const key of ['zeta', 'alpha', 'p-hidden', 'mb-p-box', 'd-p-x', 'e-p', 'b_1', '9lives', 'p']) {
      expect((await t.getPath(`/kv/team/${key}/set/v`)).status).toBe(200);
    }
    const listed = ['9lives', 'alpha', 'b_1', 'e-p', 'p', 'zeta'];
    const text = await t.getPath('/kv/team');
    expect(text.body).toBe(listed.map((key) => `/kv/team/${key}\n`).join(''));
    expect(text.headers['cache-control']).toBe(SHAREABLE);
    const asJson = await t.getPath('/kv/team?format=json');
    expect(asJson.body).toBe(`{"ns":"team","keys":${JSON.stringify(listed)}}\n`);
    expect(asJson.headers['cache-control']).toBe(SHAREABLE);
    expect((await t.getPath('/kv/team/p-hidden')).status).toBe(200); // readable by whoever knows the key
    const empty = await t.getPath('/kv/nothing-here');
    expect([empty.status, empty.body]).toEqual([200, '\n']);
    expect((await t.getPath('/kv/nothing-here?format=json')).body).toBe('{"ns":"nothing-here","keys":[]}\n');
  });

  it('sweeps values, counts code points and caps them at 8192', async () => {
    const emptyGet = await t.getPath('/kv/ns/k/set/%0D%20%E2%80%8B');
    expect(head(emptyGet, '400 empty text:')).toEqual([400, '400 empty text:']);
    const emptyPost = await t.post('/kv/ns/k', { value: '\n\t' });
    expect(head(emptyPost, '400 empty text:')).toEqual([400, '400 empty text:']);
    expect(head(await t.post('/kv/ns/k', {}), '400 empty text:')).toEqual([400, '400 empty text:']);
    const max = '😀'.repeat(8192);
    expect((await t.post('/kv/ns/k', { value: max })).status).toBe(200);
    const over = await t.post('/kv/ns/k', { value: `${max}x` });
    expect(head(over, '400 text too long: 8193 characters')).toEqual([
      400,
      '400 text too long: 8193 characters',
    ]);
    expect(over.body).toContain('8192');
  });

  it('routes the note paths: 405 with Allow, HEAD refused on the write GETs, 307 on a trailing slash', async () => {
    const put = await t.request('PUT', '/kv/a/b');
    expect([put.status, put.headers.allow]).toEqual([405, 'GET, HEAD, POST']);
    const del = await t.request('DELETE', '/kv/a');
    expect([del.status, del.headers.allow]).toEqual([405, 'GET, HEAD']);
    const headSet = await t.request('HEAD', '/kv/a/b/set/v');
    expect([headSet.status, headSet.headers.allow]).toEqual([405, 'GET']);
    expect((await t.getPath('/kv/a/b')).status).toBe(404); // the HEAD did not write
    const headSigned = await t.request('HEAD', '/kv/room-owners/d-x/set-signed/d/s/1/v');
    expect([headSigned.status, headSigned.headers.allow]).toEqual([405, 'GET']);
    const postSet = await t.request('POST', '/kv/a/b/set/v');
    expect([postSet.status, postSet.headers.allow]).toEqual([405, 'GET']);
    const slash = await t.getPath('/kv/ns/?format=json');
    expect([slash.status, slash.headers.location]).toEqual([307, '/kv/ns?format=json']);
    const noValue = await t.getPath('/kv/ns/k/set');
    expect([noValue.status, noValue.headers.location]).toEqual([307, '/kv/ns/k/set/']);
    expect(head(await t.getPath('/kv/ns/k/set/'), '400 empty text:')).toEqual([400, '400 empty text:']);
  });

  it('reads in the contract order: names (400) → 404 or 200', async () => {
    expect(head(await t.getPath('/kv/Bad/Key'), "400 bad name 'Bad'")).toEqual([400, "400 bad name 'Bad'"]);
    expect(head(await t.getPath('/kv/ns/Key'), "400 bad name 'Key'")).toEqual([400, "400 bad name 'Key'"]);
    expect(head(await t.getPath('/kv/Bad'), "400 bad name 'Bad'")).toEqual([400, "400 bad name 'Bad'"]);
    expect((await t.getPath('/kv/ns/key')).status).toBe(404);
  });

  it('GET set checks in the contract order: sweep → gate → conditions → names → 409', async () => {
    const cases: Array<[string, number, string]> = [
      ['/kv/Bad/Key/set/%0D?if_absent=nope', 400, '400 empty text:'],
      ['/kv/room-nonce/Bad/set/v?if_absent=nope', 403, '403 /kv/room-nonce/Bad is server-written'],
      ['/kv/room-owners/d-x/set/not-a-key?if_absent=nope', 400, "400 bad room-owners value: 'not-a-key'"],
      ['/kv/room-owners/lobby/set/v?if_absent=nope', 403, '403 /kv/room-owners/lobby: only d- rooms'],
      ['/kv/room-allow/d-x/set/v?if_absent=nope', 403, '403 /kv/room-allow/d-x: d-x has no owner yet'],
      ['/kv/Bad/Key/set/v?if_absent=nope', 400, "400 bad if_absent: expected one of ['', '0', '1'"],
      ['/kv/Bad/Key/set/v?if_absent=1&if=x', 400, '400 bad if_absent: send one condition, not both'],
      ['/kv/Bad/Key/set/v?if=x', 400, "400 bad name 'Bad'"],
      ['/kv/ns/Key/set/v?if=x', 400, "400 bad name 'Key'"],
      ['/kv/ns/key/set/v?if=x', 409, '409 note ns/key changed since you read it'],
      ['/kv/ns/key/set/v', 200, 'ok ns/key 1B '],
    ];
    for (const [url, status, prefix] of cases)
      expect([url, ...head(await t.getPath(url), prefix)]).toEqual([url, status, prefix]);
  });

  it('POST checks in the contract order: body → value type → sweep → did type → conditions → gate → write', async () => {
    const cases: Array<[string, string, number, string]> = [
      ['/kv/ns/k', '{"value": "v",', 400, '400 body must be JSON, and this did not parse:'],
      ['/kv/ns/k', '["value"]', 400, '400 body must be a JSON object, not a list'],
      ['/kv/Bad/k', '{"value": 5, "did": 5, "if": 5}', 400, '400 bad value: must be a string'],
      ['/kv/Bad/k', '{"value": " ", "did": 5, "if": 5}', 400, '400 empty text:'],
      ['/kv/Bad/k', '{"value": "v", "did": 5, "if": 5}', 400, '400 bad did: must be a string'],
      ['/kv/room-nonce/k', '{"value": "v", "if": 5}', 400, '400 bad if: must be a string'],
      ['/kv/room-nonce/k', '{"value": "v", "if_absent": "nope"}', 400, '400 bad if_absent: expected one of'],
      [
        '/kv/room-nonce/k',
        '{"value": "v", "if_absent": true, "if": "x"}',
        400,
        '400 bad if_absent: send one',
      ],
      [
        '/kv/room-nonce/k',
        '{"value": "v", "did": "  ", "sig": 5}',
        403,
        '403 /kv/room-nonce/k is server-written',
      ],
      ['/kv/Bad/k', '{"value": "v", "if": "x"}', 400, "400 bad name 'Bad'"],
      ['/kv/ns/k', '{"value": "v", "if": "x"}', 409, '409 note ns/k changed since you read it'],
      ['/kv/ns/k', '{"value": "v", "if": null, "extra": [1]}', 200, 'ok ns/k 1B '],
    ];
    for (const [url, body, status, prefix] of cases) {
      const reply = await t.request('POST', url, body, { 'content-type': 'application/json' });
      expect([url, body, ...head(reply, prefix)]).toEqual([url, body, status, prefix]);
    }
    const tooLarge = await t.request('POST', '/kv/ns/k', `{"value":"${'x'.repeat(300_000)}"}`);
    expect(head(tooLarge, '413 body too large')).toEqual([413, '413 body too large']);
    const asJson = await t.post('/kv/ns/k2?format=json', { value: 'long text ✓' });
    expect(json(asJson)).toMatchObject({ ns: 'ns', key: 'k2', bytes: 13 });
  });

  it('spends read tokens on reads and listings, write tokens on writes, with the budget footer', async () => {
    await t.close();
    t = await TestApp.start({ rateRead: 4, rateWrite: 4 });
    const writes = [
      await t.getPath('/kv/ns/k/set/a'),
      await t.post('/kv/ns/k', { value: 'b' }),
      await t.getPath('/kv/ns/k/set/c'),
      await t.getPath('/kv/ns/k/set/d?format=json'),
    ];
    expect(writes.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(writes[1].body).toMatch(new RegExp(`^ok ns/k 1B ${TS}\n$`));
    expect(writes[2].body).toMatch(
      new RegExp(`^ok ns/k 1B ${TS}\n# budget: 1 of 4 writes left this minute .*\n$`),
    );
    expect(writes[3].body).not.toContain('# budget'); // JSON never carries it
    expect(head(await t.getPath('/kv/ns/k/set/e'), '429 rate limited:')).toEqual([429, '429 rate limited:']);
    const reads = [await t.getPath('/kv/ns/k'), await t.getPath('/kv/ns'), await t.getPath('/kv/ns/k')];
    expect(reads[0].headers['cache-control']).toBe(SHAREABLE);
    expect(reads[2].body).toMatch(
      /^!! UNTRUSTED CONTENT — .*\n\nd\n# budget: 1 of 4 reads left this minute .*\n$/,
    );
    expect(reads[2].headers['cache-control']).toBe('no-store');
    expect((await t.getPath('/kv/empty')).body).toMatch(/^\n# budget: 0 of 4 reads left/);
    expect((await t.getPath('/kv/ns')).status).toBe(429);
  });

  it('keeps topic an ordinary world-writable namespace', async () => {
    expect((await t.getPath('/kv/topic/lobby/set/hello%20all')).status).toBe(200);
    expect((await t.post('/kv/topic/lobby', { value: 'changed' })).status).toBe(200);
    expect((await t.getPath('/kv/topic/lobby')).body.split('\n')[2]).toBe('changed');
  });
});
