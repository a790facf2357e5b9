import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Reply, TestApp } from '../support/test-app';

const BR = { 'accept-encoding': 'br' };
const GZIP = { 'accept-encoding': 'gzip' };

/** The body as the client sees it after undoing the Content-Encoding. */
function decoded(reply: Reply): Buffer {
  switch (reply.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(reply.rawPayload);
    case 'gzip':
      return gunzipSync(reply.rawPayload);
    case undefined:
      return reply.rawPayload;
    default:
      throw new Error(`unexpected coding ${String(reply.headers['content-encoding'])}`);
  }
}

function varyNames(reply: Reply): string[] {
  return String(reply.headers.vary ?? '').split(/\s*,\s*/);
}

/** Contract §1.1: brotli or gzip when Accept-Encoding asks, small bodies plain, Vary on every reply. */
describe('response compression', () => {
  let t: TestApp;
  const get = (path: string, headers: Record<string, string> = {}): Promise<Reply> =>
    t.request('GET', path, undefined, headers);

  beforeAll(async () => {
    t = await TestApp.start({ corsOrigins: 'https://app.example' });
    for (let i = 0; i < 30; i++) {
      await t.post('/r/big', { from: `writer${i % 3}`, text: `message ${i}: the usual chatter about work` });
    }
  });
  afterAll(() => t.close());

  it('encodes the manual in the coding asked for, with a matching Content-Length, on GET and HEAD', async () => {
    const plain = await get('/llms.txt');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(varyNames(plain)).toContain('Accept-Encoding');
    for (const [headers, coding] of [
      [BR, 'br'],
      [GZIP, 'gzip'],
      [{ 'accept-encoding': 'gzip, deflate, br' }, 'br'],
      [{ 'accept-encoding': 'br;q=0.1, gzip' }, 'gzip'],
    ] as const) {
      const reply = await get('/llms.txt', headers);
      expect([reply.headers['content-encoding'], reply.headers['content-type']]).toEqual([
        coding,
        'text/plain; charset=utf-8',
      ]);
      expect(Number(reply.headers['content-length'])).toBe(reply.rawPayload.length);
      expect(reply.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(decoded(reply).equals(plain.rawPayload)).toBe(true);
      const head = await t.request('HEAD', '/llms.txt', undefined, headers);
      expect([head.headers['content-encoding'], head.headers['content-length'], head.body]).toEqual([
        coding,
        reply.headers['content-length'],
        '',
      ]);
    }
    for (const refusing of ['identity', 'br;q=0, gzip;q=0', '', 'deflate', 'gzip;q=0.5, identity']) {
      const reply = await get('/llms.txt', { 'accept-encoding': refusing });
      expect([refusing, reply.headers['content-encoding']]).toEqual([refusing, undefined]);
      expect(reply.rawPayload.equals(plain.rawPayload)).toBe(true);
    }
  });

  it('compresses every document type and keeps its own headers', async () => {
    for (const path of ['/openapi.json', '/skill.md', '/.well-known/agent.json', '/sitemap.xml']) {
      const plain = await get(path, { host: 'chat.example' });
      const reply = await get(path, { host: 'chat.example', ...GZIP });
      expect([path, reply.headers['content-encoding']]).toEqual([path, 'gzip']);
      expect(reply.headers['content-type']).toBe(plain.headers['content-type']);
      expect(reply.headers['cache-control']).toBe(plain.headers['cache-control']);
      expect(decoded(reply).equals(plain.rawPayload)).toBe(true);
    }
  });

  it('serves cached room reads compressed, text and JSON, and never a stale encoding after a write', async () => {
    for (const path of ['/r/big?limit=50', '/r/big?limit=50&format=json']) {
      const plain = await get(path);
      const first = await get(path, BR);
      const again = await get(path, BR);
      expect(first.headers['content-encoding']).toBe('br');
      expect(first.headers['cache-control']).toBe(plain.headers['cache-control']);
      expect(first.headers['content-type']).toBe(plain.headers['content-type']);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(decoded(first).equals(plain.rawPayload)).toBe(true);
    }
    await t.post('/r/big', { from: 'late', text: 'the newest line' });
    expect(decoded(await get('/r/big?limit=50', BR)).toString()).toContain('<~late> the newest line');
    expect(decoded(await get('/r/big?limit=50', GZIP)).toString()).toContain('<~late> the newest line');
  });

  it('compresses replies made per request: writes, held reads, listings, the route map', async () => {
    const write = await get('/r/big/say/bob/hello', GZIP);
    expect(write.headers['content-encoding']).toBe('gzip');
    expect(decoded(write).toString()).toContain('<~bob> hello');
    const held = await get('/r/big?since=0&wait=1', BR); // messages exist: answered at once, per request
    expect(held.headers['content-encoding']).toBe('br');
    expect(decoded(held).toString()).toContain('<~bob> hello');
    expect(held.headers['cache-control']).toBe('no-store');
    const rooms = await get('/rooms', BR);
    expect(rooms.headers['content-encoding']).toBe('br');
    expect(decoded(rooms).toString()).toContain('big');
    const notFound = await get('/no/such/path', BR);
    expect([notFound.status, notFound.headers['content-encoding']]).toEqual([404, 'br']);
    expect(decoded(notFound).equals((await get('/no/such/path')).rawPayload)).toBe(true);
  });

  it('leaves bodies under 500 bytes plain, still varying on Accept-Encoding', async () => {
    await get('/kv/ns/key/set/short');
    for (const path of ['/kv/ns/key', '/r/BAD', '/healthz', '/r/big/', '/r/big?limit=1']) {
      const reply = await get(path, BR);
      expect([path, reply.headers['content-encoding']]).toEqual([path, undefined]);
      expect(reply.rawPayload.length).toBeLessThan(500);
      expect(varyNames(reply)).toContain('Accept-Encoding');
    }
  });

  it('streams exports compressed, identical once decoded; HEAD names the coding and sends nothing', async () => {
    const plain = await get('/r/big/export');
    for (const headers of [BR, GZIP]) {
      const reply = await get('/r/big/export', headers);
      expect(reply.headers['content-encoding']).toBe(headers['accept-encoding']);
      expect(reply.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      expect(decoded(reply).equals(plain.rawPayload)).toBe(true);
    }
    const head = await t.request('HEAD', '/r/big/export', undefined, BR);
    expect([head.status, head.headers['content-encoding'], head.body]).toEqual([200, 'br', '']);
    expect((await get('/r/never-written/export', BR)).rawPayload.length).toBe(0);
  });

  it('puts Vary: Accept-Encoding on every reply, once, beside the other Vary names', async () => {
    const replies: Array<[string, Reply]> = [
      [
        '431',
        await get('/healthz', Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`x-${i}`, 'v']))),
      ],
      ['405 HEAD write', await t.request('HEAD', '/r/big/say/a/b')],
      ['405 PUT', await t.request('PUT', '/r/big')],
      ['307', await get('/rooms/')],
      [
        'preflight',
        await t.request('OPTIONS', '/r/big', undefined, {
          origin: 'https://app.example',
          'access-control-request-method': 'GET',
        }),
      ],
      ['write', await t.post('/r/big', { from: 'a', text: 'b' })],
      [
        'mcp',
        await t.request('POST', '/mcp', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        }),
      ],
    ];
    const statuses = replies.map(([label, reply]) => [label, reply.status]);
    expect(statuses).toEqual([
      ['431', 431],
      ['405 HEAD write', 405],
      ['405 PUT', 405],
      ['307', 307],
      ['preflight', 200],
      ['write', 200],
      ['mcp', 200],
    ]);
    for (const [label, reply] of replies) {
      expect([label, varyNames(reply).filter((name) => name === 'Accept-Encoding')]).toEqual([
        label,
        ['Accept-Encoding'],
      ]);
    }
    const markdown = await get('/skill.md', {
      accept: 'text/markdown',
      origin: 'https://app.example',
      ...BR,
    });
    expect(varyNames(markdown).sort()).toEqual(['Accept', 'Accept-Encoding', 'Host', 'Origin']);
    expect(markdown.headers['content-encoding']).toBe('br');
  });
});

describe('response compression of a reply carrying the budget footer', () => {
  it('compresses the cached read plus the caller’s footer per request, never caching the footer', async () => {
    const t = await TestApp.start({ rateRead: 8 }); // the footer shows once 2 or fewer reads are left
    try {
      for (let i = 0; i < 20; i++) await t.post('/r/big', { from: 'w', text: `line ${i} of some chatter` });
      const bodies: string[] = [];
      for (let i = 0; i < 6; i++) {
        const reply = await t.request('GET', '/r/big', undefined, GZIP);
        expect(reply.headers['content-encoding']).toBe('gzip');
        bodies.push(decoded(reply).toString());
      }
      expect(bodies[0]).not.toContain('# budget:');
      expect(bodies[5]).toMatch(/\n# budget: 2 of 8 reads left this minute .*\n$/);
      expect(bodies[5].startsWith(bodies[0])).toBe(true); // the cached rendering, then the footer
    } finally {
      await t.close();
    }
  });
});
