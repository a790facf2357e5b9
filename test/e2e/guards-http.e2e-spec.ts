import { WaitSlots } from '../../src/access/wait-slots';
import { AppConfig } from '../../src/config/app-config';
import { json, Reply, TestApp } from '../support/test-app';

/** `count` distinct headers besides the host and user-agent inject always sends. */
function manyHeaders(count: number, valueLength = 1): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`x-h${i}`, 'v'.repeat(valueLength)]));
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('HTTP edge rules: header limits and long-poll slots', () => {
  let t: TestApp;
  const start = async (overrides: Partial<AppConfig> = {}): Promise<void> => {
    t = await TestApp.start(overrides);
  };
  afterEach(() => t.close());

  it('refuses more than 48 headers or 8192 header bytes with 431 before anything else runs', async () => {
    await start({ rateRead: 1 });
    expect((await t.request('GET', '/healthz', undefined, manyHeaders(46))).status).toBe(200); // 48 in all
    const tooMany = await t.request('GET', '/healthz', undefined, manyHeaders(47));
    expect(tooMany.status).toBe(431);
    expect(tooMany.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(tooMany.headers['cache-control']).toBe('no-store');
    expect(tooMany.body).toMatch(
      /^431 header block too large: received 49 headers totalling \d+ bytes, and the maxima are 48 headers and 8192 bytes\. .*\n$/,
    );
    const tooBig = await t.request('GET', '/no/such/route', undefined, { 'x-big': 'v'.repeat(8200) });
    expect(tooBig.status).toBe(431); // not the 404 route map
    expect(tooBig.body).toMatch(/received 3 headers totalling \d{4} bytes/);
    expect((await t.getPath('/r/lobby')).status).toBe(200);
    expect((await t.getPath('/r/lobby')).status).toBe(429);
    expect((await t.request('GET', '/r/lobby', undefined, manyHeaders(47))).status).toBe(431); // not 429
    expect((await t.request('HEAD', '/r/x/say/a/b', undefined, manyHeaders(47))).status).toBe(431); // not 405
  });

  it('takes the header limits from the config', async () => {
    await start({ maxHeaders: 4, maxHeaderBytes: 100 });
    expect((await t.request('GET', '/healthz', undefined, manyHeaders(2))).status).toBe(200);
    expect((await t.request('GET', '/healthz', undefined, manyHeaders(3))).status).toBe(431);
    expect((await t.request('GET', '/healthz', undefined, { 'x-a': 'v'.repeat(80) })).status).toBe(431);
  });

  it('answers at once with wait_held false when the caller holds all its slots', async () => {
    await start({ maxWaitersPerIp: 1 });
    const slots = t.get(WaitSlots);
    const parked = t.getPath('/r/poll?since=0&wait=5&format=json');
    await until(() => slots.inUse === 1);
    const started = Date.now();
    const refused = await t.getPath('/r/poll?since=0&wait=5&format=json');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(refused.body).toBe(
      '{"room":"poll","count":0,"first_seq":null,"last_seq":0,"generation":0,"messages":[],"wait_held":false}\n',
    );
    expect(refused.headers['cache-control']).toBe('no-store');
    const text = await t.getPath('/r/poll?since=0&wait=5');
    const lines = text.body.split('\n');
    expect(lines[lines.length - 2]).toBe(
      '# wait: not held — you hold all 1 slots one caller may have; this reply is immediate rather than ' +
        'after 5s, so sleep about 5s before you read again.',
    );
    expect(lines[lines.length - 3]).toMatch(/^say: {2}/);
    await t.getPath('/r/poll/say/a/wake');
    expect(json(await parked).count).toBe(1);
    expect(slots.inUse).toBe(0);
  });

  it('says when the whole instance is busy, and 0 slots refuses every wait', async () => {
    await start({ maxWaitersTotal: 1, clientIpHeader: 'x-client' });
    const slots = t.get(WaitSlots);
    const parked = t.request('GET', '/r/busy?since=0&wait=0.5', undefined, { 'x-client': 'a' });
    await until(() => slots.inUse === 1);
    const other = await t.request('GET', '/r/busy?since=0&wait=0.5', undefined, { 'x-client': 'b' });
    expect(other.body).toContain(
      '# wait: not held — all 1 on this instance are busy; this reply is immediate',
    );
    expect(json(await t.getPath('/r/busy?since=0&wait=0.5&format=json')).wait_held).toBe(false);
    expect((await parked).body).not.toContain('# wait');
    expect(slots.inUse).toBe(0);
    await t.close();

    await start({ maxWaitersPerIp: 0 });
    const none = await t.getPath('/r/q?since=0&wait=3&format=json');
    expect(json(none).wait_held).toBe(false);
  });

  it('takes a slot only when the wait would park', async () => {
    await start({ maxWaitersPerIp: 0 });
    await t.getPath('/r/full/say/a/hello');
    const answered: Reply = await t.getPath('/r/full?since=0&wait=5&format=json');
    expect(json(answered)).toMatchObject({ count: 1 });
    expect(json(answered).wait_held).toBeUndefined(); // data was there: no wait, no slot needed
    expect(json(await t.getPath('/r/full?wait=5&format=json')).wait_held).toBeUndefined(); // no cursor
    expect(t.get(WaitSlots).inUse).toBe(0);
  });
});
