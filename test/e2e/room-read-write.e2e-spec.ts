import { json, TestApp } from '../support/test-app';

const BANNER_PREFIX = '!! UNTRUSTED CONTENT — ';

describe('rooms: read and write through HTTP', () => {
  let t: TestApp;
  beforeEach(async () => (t = await TestApp.start()));
  afterEach(() => t.close());

  it('reads a room that never existed as empty, text and JSON', async () => {
    const text = await t.getPath('/r/lobby');
    expect(text.status).toBe(200);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = text.body.split('\n');
    expect(lines[0]).toBe('# room lobby  messages 0  range None..0');
    expect(lines[1].startsWith(BANNER_PREFIX)).toBe(true);
    expect(lines.slice(2)).toEqual([
      '',
      '(no new messages)',
      '',
      'next: /r/lobby?since=0',
      'say:  /r/lobby/say/<nick>/<text%20url%20encoded>',
      '',
    ]);
    const asJson = await t.getPath('/r/lobby?format=json');
    expect(asJson.headers['content-type']).toBe('application/json');
    expect(asJson.body).toBe(
      '{"room":"lobby","count":0,"first_seq":null,"last_seq":0,"generation":0,"messages":[]}\n',
    );
  });

  it('appends with GET say and shows the message in reads and the write reply', async () => {
    const said = await t.getPath('/r/lobby/say/alice/hello%20world?format=json');
    expect(said.status).toBe(200);
    const body = json(said);
    expect(body).toMatchObject({ room: 'lobby', count: 1, first_seq: 1, last_seq: 1, generation: 1 });
    const posted = body.posted as Record<string, unknown>;
    expect(Object.keys(posted)).toEqual(['seq', 'ts', 'from', 'text']);
    expect(posted).toMatchObject({ seq: 1, from: 'alice', text: 'hello world' });
    expect(posted.ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(said.body.endsWith(`"posted":${JSON.stringify(posted)}}\n`)).toBe(true);

    const read = await t.getPath('/r/lobby');
    expect(read.body).toContain(`[1] ${posted.ts as string} <~alice> hello world\n`);
    expect(read.body.split('\n')[0]).toBe('# room lobby  messages 1  range 1..1');
    expect(read.body).toContain('\nnext: /r/lobby?since=1\n');
    expect(read.headers['cache-control']).toBe('public, max-age=0, s-maxage=1, stale-while-revalidate=5');
    expect(said.headers['cache-control']).toBe('no-store');
  });

  it('announces new public rooms on /r/events, but never p- rooms', async () => {
    await t.getPath('/r/alpha/say/a/one');
    await t.getPath('/r/alpha/say/a/two');
    await t.getPath('/r/p-secret/say/a/hidden');
    await t.getPath('/r/beta/say/b/one');
    const events = json(await t.getPath('/r/events?format=json'));
    const texts = (events.messages as Array<Record<string, unknown>>).map((m) => [m.from, m.text]);
    expect(texts).toEqual([
      ['server', 'created alpha'],
      ['server', 'created beta'],
    ]);
    const text = await t.getPath('/r/events');
    expect(text.body).toMatch(/\[1\] \S+ <~server> created alpha\n/);
  });

  it('returns the newest `limit` messages after `since`, clamps cursors and never refuses parameters', async () => {
    for (let i = 1; i <= 8; i++) await t.getPath(`/r/room/say/n/m${i}`);
    const seqs = async (query: string): Promise<unknown[]> =>
      (json(await t.getPath(`/r/room?format=json&${query}`)).messages as Array<{ seq: number }>).map(
        (m) => m.seq,
      );
    expect(await seqs('since=2&limit=3')).toEqual([6, 7, 8]);
    expect(await seqs('since=6')).toEqual([7, 8]);
    expect(await seqs('limit=0')).toEqual([8]);
    expect(await seqs('limit=abc&since=-4')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await seqs('since=1_000')).toEqual([]);
    expect(await seqs('since=%EF%BC%95')).toEqual([6, 7, 8]); // fullwidth 5, as Python int() reads it
    const past = json(await t.getPath('/r/room?format=json&since=99999999999999999999999'));
    expect(past).toMatchObject({ count: 0, first_seq: null, last_seq: 8 });
    const more = json(await t.getPath('/r/room?format=json&limit=500'));
    expect(more.count).toBe(8);
  });

  it('accepts the JSON POST lane and checks fields in the contract order', async () => {
    const ok = await t.post('/r/room?format=json', { from: 'bob', text: 'hi there', extra: 1 });
    expect(ok.status).toBe(200);
    expect((json(ok).posted as Record<string, unknown>).text).toBe('hi there');

    const cases: Array<[unknown, string]> = [
      ['{not json', '400 body must be JSON, and this did not parse: '],
      ['[1,2]', '400 body must be a JSON object, not a list'],
      ['"x"', '400 body must be a JSON object, not a str'],
      ['3', '400 body must be a JSON object, not a int'],
      ['3.5', '400 body must be a JSON object, not a float'],
      ['null', '400 body must be a JSON object, not a NoneType'],
      ['true', '400 body must be a JSON object, not a bool'],
      [{ from: 'bob', text: 5 }, '400 bad text: must be a string'],
      [{ text: 'hello' }, '400 bad from: required'],
      [{ from: 7, text: 'hello' }, '400 bad from: must be a string'],
      [{ from: 'Bob', text: 'hello' }, "400 bad from: 'Bob' must match /^[a-z0-9][a-z0-9_-]{0,47}$/"],
      [{ from: 'bob', text: ' \n\t ' }, '400 empty text:'],
      [{ did: 5, text: 'x' }, '400 bad did: must be a string'],
    ];
    for (const [body, prefix] of cases) {
      const reply = await t.post('/r/room', body as string);
      expect([reply.status, reply.body.slice(0, prefix.length)]).toEqual([400, prefix]);
      expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    const empty = await t.request('POST', '/r/room');
    expect(empty.body.startsWith('400 bad from: required')).toBe(true);
  });

  it('refuses client writes to /r/events and unsigned writes to mailboxes with 403', async () => {
    const say = await t.getPath('/r/events/say/a/hello');
    expect(say.status).toBe(403);
    expect(say.body.startsWith('403 /r/events is server-written')).toBe(true);
    expect((await t.post('/r/events', '{oops')).status).toBe(400); // the body is parsed first
    expect((await t.post('/r/events', { from: 'a', text: 'x' })).status).toBe(403);
    const mailbox = await t.getPath('/r/mb-box/say/a/hello');
    expect(mailbox.status).toBe(403);
    expect(mailbox.body).toContain('/r/mb-box/say-signed/<did>/<sig>/<nonce>/<text>');
    expect((await t.getPath('/r/mb-box')).body).toContain(
      'say:  /r/mb-box/say-signed/<did>/<sig>/<nonce>/<text%20url%20encoded>',
    );
  });

  it('applies the name grammar, the single-line sweep and code-point lengths', async () => {
    const bad = await t.getPath('/r/Lobby');
    expect(bad.status).toBe(400);
    expect(bad.body.startsWith("400 bad name 'Lobby': names must match ^[a-z0-9][a-z0-9_-]{0,47}$")).toBe(
      true,
    );
    expect((await t.getPath('/r/lobby/say/Al/hi')).body.startsWith("400 bad name 'Al'")).toBe(true);
    expect((await t.getPath(`/r/${'a'.repeat(49)}`)).status).toBe(400);

    const swept = json(await t.getPath('/r/s/say/a/%09tab%E2%80%8Bzwsp%C2%ADshy%E2%80%A8ls%20?format=json'));
    expect((swept.posted as { text: string }).text).toBe('tab zwsp shy ls');
    expect((await t.getPath('/r/s/say/a/%E2%80%8B%20%0D')).body.startsWith('400 empty text:')).toBe(true);

    const tooLong = await t.getPath(`/r/s/say/a/${'x'.repeat(4097)}`);
    expect(tooLong.body.startsWith('400 text too long: 4097 characters')).toBe(true);
    const emoji = '😀'.repeat(4096); // 4096 code points, 8192 UTF-16 units
    expect((await t.post('/r/s', { from: 'a', text: emoji })).status).toBe(200);
    expect((await t.post('/r/s', { from: 'a', text: `${emoji}x` })).body).toContain('4097 characters');
  });

  it('routes on the decoded path the way the reference does', async () => {
    expect(json(await t.getPath('/r/d/say/a/a+b%2Fc%3Fd?format=json')).posted).toMatchObject({
      text: 'a+b/c?d',
    });
    const newline = await t.getPath('/r/d/say/a/one%0Atwo');
    expect(newline.status).toBe(404);
    expect(newline.body.startsWith('404 no route matched.')).toBe(true);
    expect(json(await t.getPath('/r/d/say/a/trailing%0A?format=json')).posted).toMatchObject({
      text: 'trailing',
    });
    expect((await t.getPath('/r/a%2Fb')).status).toBe(404);
    expect((await t.getPath('/r/d%2Fexport')).headers['content-type']).toBe(
      'application/x-ndjson; charset=utf-8',
    );
    expect(json(await t.getPath('/r/d/say/a/bad%FFbyte?format=json')).posted).toMatchObject({
      text: 'bad\uFFFDbyte',
    });
    expect((await t.getPath('/r/d%0A')).status).toBe(400);
  });

  it('answers 404 with the route map, 405 with Allow, 307 on a trailing slash, and HEAD on reads only', async () => {
    const notFound = await t.getPath('/nope');
    const lines = notFound.body.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[1].indexOf('read the newest messages')).toBe(43);
    expect(lines[6]).toContain('GET /rooms · GET /r/events');

    const put = await t.request('PUT', '/r/lobby');
    expect([put.status, put.headers.allow]).toEqual([405, 'GET, HEAD, POST']);
    expect(put.body.startsWith('405 PUT is not accepted here.')).toBe(true);
    expect((await t.request('DELETE', '/r/lobby/export')).headers.allow).toBe('GET, HEAD');
    const head = await t.request('HEAD', '/r/lobby/say/a/hi');
    expect([head.status, head.headers.allow]).toEqual([405, 'GET']);
    expect(json(await t.getPath('/r/lobby?format=json')).count).toBe(0); // the HEAD wrote nothing
    const headRead = await t.request('HEAD', '/r/lobby');
    expect([headRead.status, headRead.body]).toEqual([200, '']);

    const slash = await t.getPath('/r/lobby/?n=1');
    expect([slash.status, slash.headers.location]).toEqual([307, '/r/lobby?n=1']);
    const noText = await t.getPath('/r/lobby/say/a');
    expect([noText.status, noText.headers.location]).toEqual([307, '/r/lobby/say/a/']);
    expect((await t.getPath('/r/lobby/say/a/')).body.startsWith('400 empty text:')).toBe(true);
    expect((await t.getPath('/r/')).status).toBe(404);
    expect((await t.getPath('/healthz')).body).toBe('ok\n');
  });

  it('answers errors in text/plain even when JSON was asked for', async () => {
    const reply = await t.getPath('/r/BAD?format=json');
    expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(reply.body.endsWith('\n')).toBe(true);
  });
});
