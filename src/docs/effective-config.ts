import { KNOBS } from '../config/config-knobs';
import { DocContext } from './doc-context';
import { SERVICE_NAME, SERVICE_VERSION } from './service-identity';

type Setting = readonly [key: string, value: number | boolean, unit: string];

/**
 * /config (contract §15.4): what this process enforces, under the reference's keys (each the env var
 * `CHAT_` + key uppercased). The reference's two caches and its long-poll re-read interval do not exist
 * here — listings and note figures are always current and a write wakes its long-polls directly — so
 * they publish 0. Every knob not published is named in `withheld` with the reason.
 */
export function effectiveConfig(ctx: DocContext): object {
  const l = ctx.limits;
  const c = ctx.config;
  const settings: Setting[] = [
    ['rate_read', l.rate_read, 'reads per minute per client (also the burst)'],
    ['rate_write', l.rate_write, 'writes per minute per client (also the burst)'],
    ['rate_rooms_per_day', l.rate_rooms_per_day, 'new rooms per day per client (also the burst)'],
    ['max_rooms', l.max_rooms, 'rooms'],
    [
      'rooms_reserve_percent',
      l.rooms_reserve_percent,
      `percent of max_rooms kept for networks (/24, /48) holding no room (${l.rooms_reserved} rooms)`,
    ],
    ['max_notes_per_ns', ctx.notes.perNamespace, 'notes per namespace'],
    ['max_wait', l.max_wait, 'seconds (long-poll ceiling)'],
    ['wait_poll', 0, 'seconds (0: a write wakes its long-polls, nothing re-reads on a timer)'],
    ['max_waiters_total', l.max_waiters_total, 'long-polls held at once by this process'],
    ['max_waiters_per_ip', l.max_waiters_per_ip, 'long-polls held at once per client'],
    ['watch_max_rooms', l.watch_max_rooms, 'rooms one /watch or /watch/sse may list'],
    ['max_streams_total', l.max_streams_total, 'event streams open at once in this process'],
    ['max_streams_per_ip', l.max_streams_per_ip, 'event streams one client may hold open'],
    ['stream_buffer_kb', l.stream_buffer_kb, 'KiB a live stream may leave untaken before it is closed'],
    ['stream_heartbeat_seconds', c.streamHeartbeatSeconds, 'seconds between comments on a quiet stream'],
    ['idempotency_window_seconds', c.idempotencyWindowSeconds, 'seconds an Idempotency-Key is honoured'],
    ['idempotency_max_keys', c.idempotencyMaxKeys, 'idempotency keys remembered per kind (messages, notes)'],
    ['dupe_filter_seconds', l.dupe_filter_seconds, 'seconds (0 disables the duplicate filter)'],
    ['dupe_min_length', l.dupe_min_length, 'code points (shorter texts are never filtered)'],
    ['dupe_max_copies', l.dupe_max_copies, 'copies of one text a room accepts per window'],
    ['ephemeral_ttl_seconds', c.ephemeralTtlSeconds, 'seconds'],
    ['fsync', c.fsync === 'always', 'boolean (true: a write is on disk before its reply)'],
    ['rooms_cache_seconds', 0, 'seconds (0: /rooms is always current)'],
    ['note_stats_cache_seconds', 0, 'seconds (0: topics and note totals are always current)'],
    ['edge_cache_seconds', c.edgeCacheSeconds, 'seconds (s-maxage of shareable reads)'],
    ['static_cache_seconds', c.staticCacheSeconds, 'seconds (s-maxage of documents)'],
    ['max_notes_total', ctx.notes.total, 'notes'],
    [
      'note_bytes_mb',
      c.noteBytesMb,
      'MiB of UTF-8 across all note values (a new or longer value past it is a 400)',
    ],
    ['stillborn_seconds', c.stillbornSeconds, 'seconds (whole hours)'],
    ['retention_seconds', c.retentionSeconds, 'seconds without a write before deletion'],
    ['ring_bytes', c.ringBytes, 'bytes per room ring'],
    ['room_bytes_total', c.roomBytesTotal, 'bytes of room storage'],
    ['body_deadline_seconds', l.body_deadline_seconds, 'seconds to send a POST body'],
    ['max_headers', l.max_headers, 'request headers'],
    ['max_header_bytes', l.max_header_bytes, 'bytes of request headers'],
    [
      'send_deadline_seconds',
      l.send_deadline_seconds,
      'seconds a reply may wait unread before the connection is reset',
    ],
    ['max_pipelined', l.max_pipelined, 'requests one connection may have awaiting replies'],
  ];
  const published = new Set(settings.map(([key]) => `CHAT_${key.toUpperCase()}`));
  const withheld: Record<string, string> = {};
  for (const knob of KNOBS) {
    if (!published.has(knob.env)) withheld[knob.env] = WITHHELD_REASONS[knob.env] ?? OPERATIONAL;
  }
  return {
    service: SERVICE_NAME,
    version: SERVICE_VERSION,
    env_prefix: 'CHAT_',
    settings: Object.fromEntries(settings.map(([key, value]) => [key, value])),
    units: Object.fromEntries(settings.map(([key, , unit]) => [key, unit])),
    withheld,
    note: 'Values are what this process enforces right now. Limits are per client address and per process.',
  };
}

const OPERATIONAL = 'operational detail of this deployment; no client-visible effect';

const WITHHELD_REASONS: Readonly<Record<string, string>> = {
  CHAT_ROOT: 'a filesystem path of the host',
  CHAT_CLIENT_IP_HEADER: 'names the proxy header the operator trusts; publishing it helps spoofing',
  CHAT_CORS_ORIGINS: 'the operator’s browser allow-list',
  CHAT_SECURITY_CONTACT: 'published at /.well-known/security.txt instead',
  CHAT_PUBLIC_URL: 'visible in every document’s links instead',
  CHAT_METRICS_TOKEN: 'a secret',
  CHAT_STATS_TOKEN: 'a secret',
  CHAT_OTLP_ENDPOINT: 'an address inside the operator’s network',
  CHAT_OTLP_HEADERS: 'may carry a collector’s API key',
  PORT: 'listener detail of the host',
  HOST: 'listener detail of the host',
};
