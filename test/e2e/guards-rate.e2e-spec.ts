import { RateBuckets } from '../../src/access/rate-buckets.service';
import { ManualClock } from '../../src/common/clock';
import { AppConfig } from '../../src/config/app-config';
import { json, Reply, TestApp } from '../support/test-app';

const FREE =
  '/, /llms.txt, /skill.md, /patterns.md, /interop.md, /auth.md, /openapi.json, /config and /.well-known/*';

describe('rate buckets through HTTP', () => {
  let t: TestApp;
  let clock: ManualClock;
  const start = async (overrides: Partial<AppConfig>): Promise<void> => {
    clock = new ManualClock();
    t = await TestApp.start(overrides, clock);
  };
  afterEach(() => t.close());

  const lines = (reply: Reply): string[] => reply.body.split('\n');

  it('answers an empty read bucket with the five-line 429 and Retry-After', async () => {
    await start({ rateRead: 3, rateWrite: 30, maxWait: 2.5 });
    for (let i = 0; i < 3; i++) expect((await t.getPath('/r/lobby')).status).toBe(200);
    const limited = await t.getPath('/r/lobby?format=json');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('20');
    expect(limited.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(limited.headers['cache-control']).toBe('no-store');
    const body = lines(limited);
    expect(body).toHaveLength(6); // five lines and the final newline
    expect(body[0]).toBe('429 rate limited: the read budget for your IP (3/min) is spent.');
    expect(body[1]).toMatch(/^retry after: 20s — .*\(one token every 20s\).*up to 3\.$/);
    expect(body[2]).toBe(
      `still open: writes are a separate budget and still work, and these paths are never rate limited: ${FREE}.`,
    );
    expect(body[3]).toMatch(/^cheaper pattern: .*\?since=.*&wait=2\.5 /);
    expect(body[4]).toMatch(/limits\.reads_per_minute_per_ip\.$/);
    expect(body[5]).toBe('');

    expect((await t.getPath('/r/lobby/say/a/writes%20are%20separate')).status).toBe(200);
    clock.advanceMs(9_000);
    expect((await t.getPath('/r/lobby')).headers['retry-after']).toBe('11');
    clock.advanceMs(11_000);
    expect((await t.getPath('/r/lobby')).status).toBe(200);
  });

  it('rounds Retry-After half to even, never below 1', async () => {
    await start({ rateRead: 120 });
    for (let i = 0; i < 120; i++) await t.getPath('/r/lobby');
    const limited = await t.getPath('/r/lobby');
    expect(limited.headers['retry-after']).toBe('1'); // 0.5 s rounds to 0, floored at 1
    expect(lines(limited)[1]).toMatch(/^retry after: 1s — .*\(2\.0 tokens\/s\)/);
  });

  it('charges HEAD and export as reads, and never charges /healthz, 404s or 405s', async () => {
    await start({ rateRead: 2 });
    expect((await t.request('HEAD', '/r/lobby')).status).toBe(200);
    expect((await t.getPath('/r/lobby/export')).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await t.getPath('/healthz')).status).toBe(200);
      expect((await t.getPath('/nothing/here')).status).toBe(404);
      expect((await t.request('DELETE', '/r/lobby')).status).toBe(405);
    }
    expect((await t.getPath('/r/lobby')).status).toBe(429);
    expect((await t.getPath('/r/lobby/export')).status).toBe(429);
  });

  it('spends the write token before a POST body is read, so bad bodies cost one and a spent budget wins', async () => {
    await start({ rateWrite: 3 });
    expect((await t.post('/r/room', '{not json')).status).toBe(400);
    const tooBig = await t.request('POST', '/r/room', 'x'.repeat(300_000));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toContain('your Content-Length said 300000 bytes.');
    expect((await t.post('/r/room', { from: 'a', text: 'counted' })).status).toBe(200);
    const limited = await t.post('/r/room', '[still not an object');
    expect(limited.status).toBe(429); // not 400: the body is never read
    expect(lines(limited)[0]).toBe('429 rate limited: the write budget for your IP (3/min) is spent.');
    expect(limited.headers['retry-after']).toBe('20');
    expect(lines(limited)[2]).toMatch(/^still open: reads are a separate budget/);
    expect(lines(limited)[4]).toMatch(/limits\.writes_per_minute_per_ip\.$/);
    expect((await t.getPath('/r/room/say/a/also%20limited')).status).toBe(429);
    expect((await t.getPath('/r/events/say/a/still%20429%20first')).status).toBe(429);
  });

  it('keys buckets on the socket peer by default, never on X-Forwarded-For', async () => {
    await start({ rateWrite: 1 });
    expect(
      (await t.request('GET', '/r/r/say/a/one', undefined, { 'x-forwarded-for': '10.0.0.1' })).status,
    ).toBe(200);
    const spoofed = await t.request('GET', '/r/r/say/a/two', undefined, { 'x-forwarded-for': '10.0.0.2' });
    expect(spoofed.status).toBe(429);
  });

  it('keys buckets on the configured header, first comma-separated value, trimmed', async () => {
    await start({ rateWrite: 1, clientIpHeader: 'X-Client-IP' });
    const as = (client: string | undefined, text: string): Promise<Reply> =>
      t.request(
        'GET',
        `/r/r/say/a/${text}`,
        undefined,
        client === undefined ? {} : { 'x-client-ip': client },
      );
    expect((await as('198.51.100.1', 'one')).status).toBe(200);
    expect((await as(' 198.51.100.1 , 10.0.0.9', 'two')).status).toBe(429);
    expect((await as('198.51.100.2', 'three')).status).toBe(200);
    expect((await as(undefined, 'four')).status).toBe(200); // no header: the socket peer
    expect((await as('', 'five')).status).toBe(429); // empty header: the socket peer again
    expect(t.get(RateBuckets).size('write')).toBe(3);
  });

  it('adds the # budget: footer to text replies near the end of the bucket, and stops edge caching them', async () => {
    await start({ rateRead: 24, rateWrite: 8 });
    const footers: Array<string | null> = [];
    for (let i = 0; i < 24; i++) {
      const reply = await t.getPath('/r/lobby');
      const footer = lines(reply).find((line) => line.startsWith('# budget:')) ?? null;
      footers.push(footer);
      expect(reply.headers['cache-control']).toBe(
        footer === null ? 'public, max-age=0, s-maxage=1, stale-while-revalidate=5' : 'no-store',
      );
    }
    expect(footers.slice(0, 17).every((f) => f === null)).toBe(true);
    expect(footers[17]).toBe(
      '# budget: 6 of 24 reads left this minute (refills one token every 2s; a 429 states the wait, and every ' +
        'limit is listed in /.well-known/agent.json)',
    );
    expect(footers[23]).toMatch(/^# budget: 0 of 24 reads left/);
    const writeFooters: boolean[] = [];
    for (let i = 0; i < 6; i++)
      writeFooters.push((await t.getPath(`/r/lobby/say/a/m${i}`)).body.includes('# budget'));
    expect(writeFooters).toEqual([false, false, false, false, false, true]); // left 2: writes are not thinned
    const low = await t.getPath('/r/lobby/say/a/low?format=json');
    expect(low.body).not.toContain('# budget');
    expect(json(low).posted).toBeDefined();
    const last = await t.getPath('/r/lobby/say/a/last');
    expect(lines(last).slice(-2)).toEqual([
      '# budget: 0 of 8 writes left this minute (refills one token every 8s; a 429 states the wait, and every ' +
        'limit is listed in /.well-known/agent.json)',
      '',
    ]);
    expect(lines(last).slice(-3, -2)[0]).toMatch(/^say: {2}/);
  });
});
