import { TestApp } from '../support/test-app';

const ALLOWED = 'https://app.example';
const preflight = (origin: string, method = 'GET', headers?: string): Record<string, string> => ({
  origin,
  'access-control-request-method': method,
  ...(headers === undefined ? {} : { 'access-control-request-headers': headers }),
});

describe('browser CORS (CHAT_CORS_ORIGINS)', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('allows no origin by default: simple requests still run, preflights are refused', async () => {
    t = await TestApp.start();
    const write = await t.request('GET', '/r/lobby/say/web/hi', undefined, { origin: ALLOWED });
    expect(write.status).toBe(200); // the write lands; only the browser withholds the reply
    expect(write.headers['access-control-allow-origin']).toBeUndefined();
    expect(write.headers.vary).toBe('Accept-Encoding, Origin');
    const refused = await t.request('OPTIONS', '/r/lobby', undefined, preflight(ALLOWED));
    expect(refused.status).toBe(400);
    expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(refused.body).toBe('Disallowed CORS origin\n');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    const plain = await t.getPath('/r/lobby');
    expect(plain.headers.vary).toBe('Accept-Encoding'); // no Origin: only the compression Vary
  });

  it('answers allowed origins with the allow headers, keeping the routes own Vary', async () => {
    t = await TestApp.start({ corsOrigins: `${ALLOWED}, https://other.example` });
    const ok = await t.request('OPTIONS', '/r/lobby', undefined, preflight(ALLOWED, 'POST', 'content-type'));
    expect(ok.status).toBe(200);
    expect(ok.headers).toMatchObject({
      'access-control-allow-origin': ALLOWED,
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'Accept, Accept-Language, Content-Language, Content-Type',
      'access-control-max-age': '600',
      vary: 'Accept-Encoding, Origin',
    });
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    const read = await t.request('GET', '/r/lobby', undefined, { origin: ALLOWED });
    expect(read.headers['access-control-allow-origin']).toBe(ALLOWED);
    const doc = await t.request('GET', '/skill.md', undefined, { origin: 'https://other.example' });
    expect(doc.headers['access-control-allow-origin']).toBe('https://other.example');
    expect(String(doc.headers.vary).split(', ').sort()).toEqual([
      'Accept',
      'Accept-Encoding',
      'Host',
      'Origin',
    ]); // order carries no meaning
    const stranger = await t.request('GET', '/r/lobby', undefined, { origin: 'https://evil.example' });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    expect(stranger.headers.vary).toBe('Accept-Encoding, Origin');
  });

  it('refuses preflights for other methods and non-safelisted headers, naming every failure', async () => {
    t = await TestApp.start({ corsOrigins: ALLOWED });
    const method = await t.request('OPTIONS', '/r/lobby', undefined, preflight(ALLOWED, 'DELETE'));
    expect([method.status, method.body]).toEqual([400, 'Disallowed CORS method\n']);
    const headers = await t.request('OPTIONS', '/r/lobby', undefined, preflight(ALLOWED, 'GET', 'x-token'));
    expect([headers.status, headers.body]).toEqual([400, 'Disallowed CORS headers\n']);
    const all = await t.request(
      'OPTIONS',
      '/r/lobby',
      undefined,
      preflight('https://evil.example', 'PUT', 'x-a'),
    );
    expect(all.body).toBe('Disallowed CORS origin, method, headers\n');
    // OPTIONS that is not a preflight is an ordinary request: 405 with Allow.
    const options = await t.request('OPTIONS', '/r/lobby', undefined, { origin: ALLOWED });
    expect(options.status).toBe(405);
    expect(options.headers.allow).toBe('GET, HEAD, POST');
    expect(options.headers['access-control-allow-origin']).toBe(ALLOWED);
  });
});
