import { createHash } from 'node:crypto';
import { MANUAL_SECTIONS } from '../../src/docs/manual/manual';
import { json, Reply, TestApp } from '../support/test-app';

const HOST = { host: 'chat.example:8080' };
const BASE = 'http://chat.example:8080';
const DOC_CACHE = 'public, max-age=0, s-maxage=300, stale-while-revalidate=60';

/** Every document route with the content type it answers with by default. */
const DOCUMENTS: ReadonlyArray<readonly [string, string]> = [
  ['/', 'text/plain; charset=utf-8'],
  ['/llms.txt', 'text/plain; charset=utf-8'],
  ['/skill.md', 'text/plain; charset=utf-8'],
  ['/patterns.md', 'text/plain; charset=utf-8'],
  ['/interop.md', 'text/plain; charset=utf-8'],
  ['/auth.md', 'text/plain; charset=utf-8'],
  ['/robots.txt', 'text/plain; charset=utf-8'],
  ['/openapi.json', 'application/json'],
  ['/config', 'application/json'],
  ['/.well-known/agent.json', 'application/json'],
  ['/.well-known/api-catalog', 'application/linkset+json'],
  ['/.well-known/agent-skills/index.json', 'application/json'],
  ['/.well-known/ai-catalog.json', 'application/json'],
  ['/.well-known/mcp/server-card.json', 'application/json'],
  ['/sitemap.xml', 'application/xml'],
];

describe('companion documents', () => {
  let t: TestApp;
  afterEach(() => t.close());
  const get = (path: string, headers: Record<string, string> = HOST): Promise<Reply> =>
    t.request('GET', path, undefined, headers);

  it('answers every document with its type, the document cache policy, Vary: Host and links', async () => {
    t = await TestApp.start({ rateRead: 1 }); // documents never spend a read token
    for (const [path, type] of DOCUMENTS) {
      const reply = await get(path);
      expect([path, reply.status, reply.headers['content-type']]).toEqual([path, 200, type]);
      expect(reply.headers['cache-control']).toBe(DOC_CACHE);
      expect(String(reply.headers.vary)).toContain('Host');
      expect(reply.headers['x-robots-tag']).toBeUndefined();
      expect(reply.body.endsWith('\n')).toBe(true);
      if (type.startsWith('text/')) {
        expect(reply.headers.link).toBe(
          `<${BASE}/openapi.json>; rel="service-desc"; type="application/json", ` +
            `<${BASE}/llms.txt>; rel="service-doc"; type="text/plain", ` +
            `<${BASE}/.well-known/api-catalog>; rel="api-catalog"; type="application/linkset+json"`,
        );
      }
      if (type === 'application/json') expect(reply.body).toMatch(/^\{\n "/); // one-space indent
      const head = await t.request('HEAD', path, undefined, HOST);
      expect([path, head.status, head.body]).toEqual([path, 200, '']);
    }
    expect((await get('/healthz')).body).toBe('ok\n');
  });

  it('serves the manual at / and /llms.txt, identical and always plain, sections at column 0', async () => {
    t = await TestApp.start({ rateRead: 7777, rateWrite: 3333, rateRoomsPerDay: 5555 });
    const root = await get('/', { ...HOST, accept: 'text/markdown' });
    const manual = await get('/llms.txt');
    expect(root.rawPayload.equals(manual.rawPayload)).toBe(true);
    expect(root.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(root.headers.vary).toBe('Accept-Encoding, Host');
    const labels = manual.body
      .split('\n')
      .map((line) => /^([A-Z][A-Z ]*[A-Z])(?= {2,}| GET |$)/.exec(line)?.[1]) // DISCOVER has one space
      .filter((label): label is string => label !== undefined);
    expect(labels).toEqual([...MANUAL_SECTIONS]);
    for (const number of ['7777', '3333', '5555']) expect(manual.body).not.toContain(number);
    expect(manual.body).toContain(`${BASE}/mcp`);
  });

  it('labels the four .md documents markdown only when asked explicitly, same bytes either way', async () => {
    t = await TestApp.start();
    const cases: ReadonlyArray<readonly [string, boolean]> = [
      ['text/markdown', true],
      ['text/plain;q=0.5, text/markdown', true],
      ['text/markdown;q=0.5, text/plain;q=0.5', true],
      ['*/*', false],
      ['text/*', false],
      ['text/markdown;q=0', false],
      ['text/plain, text/markdown;q=0.9', false],
      ['application/json', false],
    ];
    for (const path of ['/skill.md', '/patterns.md', '/interop.md', '/auth.md']) {
      const plain = await get(path);
      for (const [accept, markdown] of cases) {
        const reply = await get(path, { ...HOST, accept });
        expect([path, accept, reply.headers['content-type']]).toEqual([
          path,
          accept,
          markdown ? 'text/markdown; charset=utf-8' : 'text/plain; charset=utf-8',
        ]);
        expect(reply.headers.vary).toBe('Accept-Encoding, Accept, Host');
        expect(reply.headers['cache-control']).toBe(markdown ? 'no-store' : DOC_CACHE);
        expect(reply.rawPayload.equals(plain.rawPayload)).toBe(true);
      }
    }
  });

  it('uses CHAT_PUBLIC_URL, else a well-formed Host, else relative links', async () => {
    t = await TestApp.start({ publicUrl: 'https://chat.example.org/' });
    const pinned = await get('/.well-known/api-catalog', { host: 'evil.example' });
    expect(pinned.headers.vary).toBe('Accept-Encoding'); // no Vary: Host with a fixed base
    expect(json(pinned).linkset).toEqual([
      {
        anchor: 'https://chat.example.org',
        'service-desc': [{ href: 'https://chat.example.org/openapi.json', type: 'application/json' }],
        'service-doc': [{ href: 'https://chat.example.org/llms.txt', type: 'text/plain' }],
        'service-meta': [
          { href: 'https://chat.example.org/.well-known/agent.json', type: 'application/json' },
        ],
        status: [{ href: 'https://chat.example.org/healthz', type: 'text/plain' }],
      },
    ]);
    expect((await get('/sitemap.xml')).body).toContain('<loc>https://chat.example.org/llms.txt</loc>');
    await t.close();
    t = await TestApp.start();
    const spoofed = await get('/openapi.json', { host: 'bad host<script>' });
    expect(json(spoofed).servers).toEqual([{ url: '/' }]);
    expect((await get('/robots.txt', { host: 'bad host' })).body).not.toContain('Sitemap:');
    const sitemap = await get('/sitemap.xml', { host: 'bad host' });
    expect(sitemap.status).toBe(404);
    expect(sitemap.body.startsWith('404 no route matched.')).toBe(true);
    expect(json(await get('/openapi.json', { host: 'Chat.Example:8080' })).servers).toEqual([{ url: BASE }]);
  });

  it('publishes the skill digest, the MCP card and catalogs; security.txt only with a contact', async () => {
    t = await TestApp.start();
    const skill = await get('/skill.md');
    expect(skill.body.startsWith('---\nname: technocore-chat\ndescription: ')).toBe(true);
    const index = json(await get('/.well-known/agent-skills/index.json'));
    const digest = `sha256:${createHash('sha256').update(skill.rawPayload).digest('hex')}`;
    expect(index.skills).toEqual([
      expect.objectContaining({ name: 'technocore-chat', type: 'skill-md', digest }),
    ]);
    const card = json(await get('/.well-known/mcp/server-card.json'));
    expect(card.remotes).toEqual([expect.objectContaining({ type: 'streamable-http', url: `${BASE}/mcp` })]);
    expect((json(await get('/.well-known/ai-catalog.json')).entries as unknown[]).length).toBe(4);
    const auth = (await get('/auth.md')).body;
    const block = /```json\n([\s\S]*?)\n```/.exec(auth)![1];
    expect(JSON.parse(block)).toMatchObject({ identity_types_supported: ['anonymous'], oauth: null });
    expect(block).toContain('\n  "anonymous": {');
    expect(auth).toContain('no `claim_uri` and no `register_uri`');
    expect((await get('/.well-known/security.txt')).status).toBe(404);
    for (const oauth of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server',
    ]) {
      const reply = await get(oauth);
      expect([reply.status, reply.body.split('\n')[0]]).toEqual([
        404,
        '404 no route matched. The service is small enough to list in full:',
      ]);
    }
    await t.close();
    t = await TestApp.start({ securityContact: 'security@chat.example' });
    const security = await get('/.well-known/security.txt');
    expect(security.status).toBe(200);
    expect(security.body).toMatch(/^Contact: mailto:security@chat\.example$/m);
    expect(security.body).toMatch(/^Expires: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
    expect(security.body).toMatch(new RegExp(`^Canonical: ${BASE}/.well-known/security.txt$`, 'm'));
    expect((await get('/sitemap.xml')).body).toContain('/.well-known/security.txt</loc>');
  });
});
