import { json, Reply, TestApp } from '../support/test-app';

const HOST = { host: 'chat.example:8080' };
const BASE = 'http://chat.example:8080';

describe('published limits: agent.json and /config follow the running configuration', () => {
  let t: TestApp;
  afterEach(() => t.close());
  const get = (path: string, headers: Record<string, string> = HOST): Promise<Reply> =>
    t.request('GET', path, undefined, headers);

  it('publishes the enforced limits in agent.json and /config, and follows changed knobs', async () => {
    t = await TestApp.start();
    const agent = json(await get('/.well-known/agent.json'));
    expect(Object.keys(agent)).toEqual([
      'schema_version',
      'name',
      'version',
      'display_name',
      'description',
      'role',
      'audience',
      'url',
      'provider',
      'license',
      'protocols',
      'auth',
      'documentation',
      'capabilities',
      'conventions',
      'identity',
      'limits',
      'trust',
      'mcp',
      'audit',
    ]);
    expect(agent).toMatchObject({
      name: 'technocore-chat',
      version: '0.14.5',
      url: BASE,
      license: 'Apache-2.0',
    });
    expect(agent.auth).toMatchObject({
      type: 'none',
      identity_types_supported: ['anonymous'],
      anonymous: { credential_types_supported: ['none'], registration_required: false },
      signing: {
        optional: true,
        scheme: 'did:key',
        algorithms: ['Ed25519'],
        registration_required: false,
        issuer: null,
      },
      oauth: null,
    });
    expect(agent.limits).toMatchObject({
      reads_per_minute_per_ip: 1_000_000, // test-app defaults keep suites under any limit
      long_poll_seconds: 10,
      message_chars: 4096,
      note_chars: 8192,
      rooms: 5120,
      notes: 163840,
      notes_per_namespace: 5120,
      room_ring_bytes: 10485760,
      room_bytes_total: 5368709120,
      retention_seconds: 604800,
      duplicate_filter_seconds: 60,
    });
    await t.close();
    t = await TestApp.start({
      rateRead: 600,
      rateWrite: 300,
      rateRoomsPerDay: 7,
      maxWait: 2.5,
      maxRooms: 20480,
      dupeFilterSeconds: 0,
      dupeMaxCopies: 3,
      stillbornSeconds: 43200,
      staticCacheSeconds: 0,
    });
    const changed = json(await get('/.well-known/agent.json'));
    expect(changed.limits).toMatchObject({
      reads_per_minute_per_ip: 600,
      writes_per_minute_per_ip: 300,
      new_rooms_per_day_per_ip: 7,
      long_poll_seconds: 2.5,
      rooms: 20480,
      notes: 655360,
      notes_per_namespace: 20480,
      duplicate_filter_seconds: 0,
    });
    const config = await get('/config');
    expect(config.headers['cache-control']).toBe('no-store');
    const body = json(config);
    expect(Object.keys(body)).toEqual([
      'service',
      'version',
      'env_prefix',
      'settings',
      'units',
      'withheld',
      'note',
    ]);
    expect(body.settings).toMatchObject({
      rate_read: 600,
      rate_write: 300,
      rate_rooms_per_day: 7,
      max_rooms: 20480,
      max_notes_per_ns: 20480,
      max_notes_total: 655360,
      note_bytes_mb: 64,
      max_wait: 2.5,
      max_waiters_total: 64,
      max_waiters_per_ip: 4,
      dupe_filter_seconds: 0,
      dupe_min_length: 16,
      dupe_max_copies: 3,
      ephemeral_ttl_seconds: 900,
      fsync: true,
      stillborn_seconds: 43200,
      static_cache_seconds: 0,
      edge_cache_seconds: 1,
    });
    const settings = body.settings as Record<string, unknown>;
    expect(Object.keys(body.units as object)).toEqual(Object.keys(settings));
    expect(body.withheld).toMatchObject({
      CHAT_ROOT: expect.any(String),
      CHAT_CORS_ORIGINS: expect.any(String),
    });
    expect(Object.keys(body.withheld as object)).not.toContain('CHAT_RATE_READ');
    expect((await get('/llms.txt')).body).toContain('wait=2.5');
  });

  it('publishes the watch, stream and idempotency knobs (issue 28) where clients read limits', async () => {
    t = await TestApp.start({
      watchMaxRooms: 12,
      maxStreamsPerIp: 3,
      maxStreamsTotal: 99,
      streamBufferKb: 32,
      streamHeartbeatSeconds: 5,
      idempotencyWindowSeconds: 3600,
      idempotencyMaxKeys: 500,
    });
    const agent = json(await get('/.well-known/agent.json'));
    expect(agent.limits).toMatchObject({
      watch_rooms: 12,
      streams_per_ip: 3,
      streams_total: 99,
      stream_buffer_bytes: 32 * 1024,
      stream_heartbeat_seconds: 5,
      idempotency_window_seconds: 3600,
      idempotency_keys: 500,
    });
    const names = (agent.capabilities as Array<{ name: string }>).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['watch', 'stream_room', 'stream_rooms', 'read_older']));
    const settings = json(await get('/config')).settings as Record<string, number>;
    expect(settings).toMatchObject({
      watch_max_rooms: 12,
      max_streams_total: 99,
      max_streams_per_ip: 3,
      stream_buffer_kb: 32,
      stream_heartbeat_seconds: 5,
      idempotency_window_seconds: 3600,
      idempotency_max_keys: 500,
    });
    const manual = (await get('/llms.txt')).body;
    expect(manual).toContain('waits on up to 12 rooms at once');
    expect(manual).toContain('for 1 hour. That works for signed writes too');
  });
});
