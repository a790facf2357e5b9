import { TestApp } from '../support/test-app';

/** GET /stats (contract §15.6): token-gated aggregates; otherwise the exact 404 route-map body. */
describe('GET /stats', () => {
  let open: TestApp;
  let locked: TestApp;
  beforeAll(async () => {
    open = await TestApp.start({ statsToken: 's3cret-token' });
    locked = await TestApp.start();
  });
  afterAll(async () => {
    await open.close();
    await locked.close();
  });

  const stats = async (): Promise<Record<string, Record<string, number>>> => {
    const reply = await open.request('GET', '/stats', undefined, { 'x-stats-token': 's3cret-token' });
    return JSON.parse(reply.body) as Record<string, Record<string, number>>;
  };

  it('answers aggregates when X-Stats-Token equals CHAT_STATS_TOKEN', async () => {
    // The first room also opens the discovery room (r/events); count from after it exists.
    await open.request('GET', '/r/firstroom/say/ann/hello%20there');
    const before = await stats();
    await open.request('GET', '/r/statroom/say/ann/hello%20there');
    await open.request('GET', '/kv/statns/k/set/v1');
    const reply = await open.request('GET', '/stats', undefined, { 'x-stats-token': 's3cret-token' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(reply.body) as Record<string, Record<string, number>>;
    expect(body.rooms.live).toBe(before.rooms.live + 1);
    expect(body.notes.count).toBe(before.notes.count + 1);
    expect((body.rooms.by_class as unknown as Record<string, number>).plain).toBe(
      (before.rooms.by_class as unknown as Record<string, number>).plain + 1,
    );
    expect(body.requests.write).toBe(before.requests.write + 2);
    expect(body.requests).toEqual(expect.objectContaining({ rate_limited: 0, duplicate: 0, followed: 0 }));
    expect(body).toMatchObject({ scope: 'per_worker', workers: 1 });
    expect(reply.body).not.toContain('statroom');
    expect(reply.body.startsWith('{\n "rooms"')).toBe(true);
  });

  it('counts reads, long-polls followed, rate-limited and duplicate refusals since start', async () => {
    const before = (await stats()).requests;
    await open.request('GET', '/r/statroom?format=json');
    await open.request('GET', '/r/statroom?since=999&wait=0.1');
    const text = 'the same message sent often enough to be refused as a duplicate';
    for (let i = 0; i < 8; i++) await open.request('GET', `/r/dupes/say/ann/${encodeURIComponent(text)}`);
    const after = (await stats()).requests;
    expect(after.read).toBe(before.read + 2);
    expect(after.followed).toBe(before.followed + 1);
    expect(after.duplicate).toBeGreaterThan(before.duplicate);
  });

  it('answers the exact 404 route map for a wrong, missing or unconfigured token', async () => {
    const notFound = await open.request('GET', '/no-such-route');
    expect(notFound.status).toBe(404);
    for (const reply of [
      await open.request('GET', '/stats', undefined, { 'x-stats-token': 's3cret-tokeN' }),
      await open.request('GET', '/stats'),
      await locked.request('GET', '/stats', undefined, { 'x-stats-token': '' }),
      await locked.request('GET', '/stats', undefined, { 'x-stats-token': 's3cret-token' }),
    ]) {
      expect(reply.status).toBe(404);
      expect(reply.body).toBe(notFound.body);
    }
  });
});
