import { AppConfig } from './app-config';

type Kind = 'int' | 'number' | 'string' | 'fsync';

/** One environment variable and the AppConfig field it sets. The only table of env names. */
export interface Knob {
  readonly env: string;
  readonly field: keyof AppConfig;
  readonly kind: Kind;
}

export const KNOBS: readonly Knob[] = [
  { env: 'PORT', field: 'port', kind: 'int' },
  { env: 'HOST', field: 'host', kind: 'string' },
  { env: 'CHAT_ROOT', field: 'root', kind: 'string' },
  { env: 'CHAT_FSYNC', field: 'fsync', kind: 'fsync' },
  { env: 'CHAT_FSYNC_INTERVAL_MS', field: 'fsyncIntervalMs', kind: 'int' },
  { env: 'CHAT_LOG_SEGMENT_BYTES', field: 'logSegmentBytes', kind: 'int' },
  { env: 'CHAT_LOG_RETENTION', field: 'logRetention', kind: 'string' },
  { env: 'CHAT_CHECKPOINT_SECONDS', field: 'checkpointSeconds', kind: 'number' },
  { env: 'CHAT_CHECKPOINT_EVENTS', field: 'checkpointEvents', kind: 'int' },
  { env: 'CHAT_CHECKPOINTS_KEEP', field: 'checkpointsKeep', kind: 'int' },
  { env: 'CHAT_MAX_WAIT', field: 'maxWait', kind: 'number' },
  { env: 'CHAT_MAX_WAITERS_TOTAL', field: 'maxWaitersTotal', kind: 'int' },
  { env: 'CHAT_MAX_WAITERS_PER_IP', field: 'maxWaitersPerIp', kind: 'int' },
  { env: 'CHAT_RATE_READ', field: 'rateRead', kind: 'int' },
  { env: 'CHAT_RATE_WRITE', field: 'rateWrite', kind: 'int' },
  { env: 'CHAT_RATE_ROOMS_PER_DAY', field: 'rateRoomsPerDay', kind: 'int' },
  { env: 'CHAT_RATE_MAX_BUCKETS', field: 'rateMaxBuckets', kind: 'int' },
  { env: 'CHAT_CLIENT_IP_HEADER', field: 'clientIpHeader', kind: 'string' },
  { env: 'CHAT_DUPE_FILTER_SECONDS', field: 'dupeFilterSeconds', kind: 'number' },
  { env: 'CHAT_DUPE_MAX_COPIES', field: 'dupeMaxCopies', kind: 'int' },
  { env: 'CHAT_DUPE_MIN_LENGTH', field: 'dupeMinLength', kind: 'int' },
  { env: 'CHAT_DUPE_MAX_KEYS', field: 'dupeMaxKeys', kind: 'int' },
  { env: 'CHAT_BODY_DEADLINE_SECONDS', field: 'bodyDeadlineSeconds', kind: 'number' },
  { env: 'CHAT_MAX_HEADERS', field: 'maxHeaders', kind: 'int' },
  { env: 'CHAT_MAX_HEADER_BYTES', field: 'maxHeaderBytes', kind: 'int' },
  { env: 'CHAT_EPHEMERAL_TTL_SECONDS', field: 'ephemeralTtlSeconds', kind: 'int' },
  { env: 'CHAT_STILLBORN_SECONDS', field: 'stillbornSeconds', kind: 'int' },
  { env: 'CHAT_RETENTION_SECONDS', field: 'retentionSeconds', kind: 'int' },
  { env: 'CHAT_REAP_EVERY_SECONDS', field: 'reapEverySeconds', kind: 'number' },
  { env: 'CHAT_MAX_ROOMS', field: 'maxRooms', kind: 'int' },
  { env: 'CHAT_MAX_NOTES_PER_NS', field: 'maxNotesPerNs', kind: 'int' },
  { env: 'CHAT_MAX_NOTES_TOTAL', field: 'maxNotesTotal', kind: 'int' },
  { env: 'CHAT_RING_BYTES', field: 'ringBytes', kind: 'int' },
  { env: 'CHAT_ROOM_BYTES_TOTAL', field: 'roomBytesTotal', kind: 'int' },
  { env: 'CHAT_HOT_TAIL_MB', field: 'hotTailMb', kind: 'int' },
  { env: 'CHAT_REPLY_CACHE_MB', field: 'replyCacheMb', kind: 'int' },
  { env: 'CHAT_HEAP_MB', field: 'heapMb', kind: 'int' },
  { env: 'CHAT_EDGE_CACHE_SECONDS', field: 'edgeCacheSeconds', kind: 'int' },
  { env: 'CHAT_STATIC_CACHE_SECONDS', field: 'staticCacheSeconds', kind: 'int' },
  { env: 'CHAT_CORS_ORIGINS', field: 'corsOrigins', kind: 'string' },
  { env: 'CHAT_SECURITY_CONTACT', field: 'securityContact', kind: 'string' },
  { env: 'CHAT_SHUTDOWN_GRACE_MS', field: 'shutdownGraceMs', kind: 'int' },
  { env: 'CHAT_LOG_LEVEL', field: 'logLevel', kind: 'string' },
  { env: 'CHAT_PUBLIC_URL', field: 'publicUrl', kind: 'string' },
];
