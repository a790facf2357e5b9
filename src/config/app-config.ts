import { IsIn, IsInt, IsNumber, IsString, Matches, Max, Min } from 'class-validator';
import { Accepts } from './accepts';
import { isCorsOriginList, isNatsServerList, isPublicUrl } from './address-rules';
import { defaultVerifyWorkers } from './default-verify-workers';

export type FsyncPolicy = 'always' | 'interval' | 'none';
export type LogRetention = 'compact' | 'keep';
export type LogBackend = 'file' | 'nats';

/**
 * Every knob the process reads, with its default. Names follow the reference (`CHAT_*`, contract §16)
 * wherever it has the knob; `PORT` and `HOST` configure the listener. The README's configuration table
 * lists each one; /config and /.well-known/agent.json publish the values the process enforces.
 */
export class AppConfig {
  /** Listener port. */
  @IsInt() @Min(0) @Max(65535) port = 8080;
  /** Listener address. */
  @IsString() host = '127.0.0.1';
  /** Data directory: event log, ring files and checkpoints. */
  @IsString() root = './data';
  /** Durability of an acknowledged write: fsync before the reply (group-committed), on a timer, or never. */
  @IsIn(['always', 'interval', 'none']) fsync: FsyncPolicy = 'always';
  /** With fsync=interval: milliseconds between fsyncs. */
  @IsInt() @Min(1) @Max(60_000) fsyncIntervalMs = 50;
  /** Size at which the event log rolls to a new segment file. */
  @IsInt() @Min(1 << 16) logSegmentBytes = 64 * 1024 * 1024;
  /** `compact`: drop log segments older than the oldest kept checkpoint; `keep`: keep the whole log. */
  @IsIn(['compact', 'keep']) logRetention: LogRetention = 'compact';
  /** Seconds between checkpoints of the projections (when something changed). */
  @IsNumber() @Min(0.1) checkpointSeconds = 30;
  /** Also checkpoint after this many applied events, so a restart never replays more than that. */
  @IsInt() @Min(1) checkpointEvents = 50_000;
  /** How many checkpoints to keep (the oldest is where replay and log retention start). */
  @IsInt() @Min(1) @Max(100) checkpointsKeep = 2;
  /** Long-poll ceiling in seconds (`wait` is clamped to it). */
  @IsNumber() @Min(0) @Max(300) maxWait = 10;
  /** Long-polls parked at once in this process (0 refuses every slot: waits answer at once). */
  @IsInt() @Min(0) maxWaitersTotal = 64;
  /** Long-polls one client may have parked at once. */
  @IsInt() @Min(0) maxWaitersPerIp = 4;
  /** Rooms one /watch or /watch/sse request may list (a longer list is a 400). */
  @IsInt() @Min(1) @Max(1024) watchMaxRooms = 64;
  /** Event streams (SSE) open at once in this process; past it a new stream is refused with 429. */
  @IsInt() @Min(0) maxStreamsTotal = 2048;
  /** Event streams one client may hold open at once. */
  @IsInt() @Min(0) maxStreamsPerIp = 8;
  /** KiB a stream may have written but not yet taken by its client; a live stream past it is closed. */
  @IsInt() @Min(16) @Max(65_536) streamBufferKb = 256;
  /** Seconds between heartbeat comments on a quiet stream (proxies close idle connections). */
  @IsNumber() @Min(1) @Max(300) streamHeartbeatSeconds = 15;
  /** Seconds an idempotency key is honoured after its write (a retry within it answers like the write). */
  @IsInt() @Min(60) @Max(604_800) idempotencyWindowSeconds = 86_400;
  /** Idempotency keys remembered per kind (messages, notes); the oldest is forgotten first past it. */
  @IsInt() @Min(1) idempotencyMaxKeys = 65_536;
  /** Reads per minute per client (token bucket, burst = the same number; floored at 1). */
  @IsInt() rateRead = 120;
  /** Writes per minute per client (floored at 1). */
  @IsInt() rateWrite = 30;
  /** New rooms per day per client (burst = the same number; one token back every 86400/N s). */
  @IsInt() @Min(1) rateRoomsPerDay = 20;
  /** Per-bucket-kind cap on remembered clients; the idlest bucket is forgotten first. */
  @IsInt() @Min(1) rateMaxBuckets = 20_000;
  /** Header naming the client (first comma-separated value); empty = the socket peer address. */
  @IsString() clientIpHeader = '';
  /** Duplicate-filter window in seconds (0 disables the filter). */
  @IsNumber() @Min(0) dupeFilterSeconds = 60;
  /** Copies of one text a room accepts within the window (floored at 1). */
  @IsInt() dupeMaxCopies = 5;
  /** Normalised texts shorter than this many code points are never filtered. */
  @IsInt() @Min(0) dupeMinLength = 16;
  /** Texts the duplicate filter remembers across all rooms; the oldest is forgotten first. */
  @IsInt() @Min(1) dupeMaxKeys = 4096;
  /** Total seconds a POST body may take to arrive (408 and the connection closes). */
  @IsNumber() @Min(0.05) bodyDeadlineSeconds = 10;
  /** Seconds a request may take to arrive whole, headers and body (Node's requestTimeout; 408 after). */
  @IsNumber() @Min(1) requestTimeoutSeconds = 30;
  /** Seconds the request headers may take to arrive (Node's headersTimeout; at most the request timeout). */
  @IsNumber() @Min(1) headersTimeoutSeconds = 15;
  /** Open connections in total; 0 = the descriptor limit minus 1,280 kept for files (at least 64). */
  @IsInt() @Min(0) maxConnections = 0;
  /** Open connections one client address may hold; more are closed at accept. */
  @IsInt() @Min(1) maxConnectionsPerClient = 256;
  /** Seconds a reply's written bytes may wait undrained (a client not reading) before the connection is reset. */
  @IsNumber() @Min(1) @Max(3600) sendDeadlineSeconds = 30;
  /** Requests one connection may have awaiting their replies (pipelined); one more resets the connection. */
  @IsInt() @Min(1) @Max(1024) maxPipelined = 32;
  /** Request headers allowed (431 above). */
  @IsInt() @Min(1) maxHeaders = 48;
  /** Header bytes allowed, summed as name + value + 4 per header (431 above). */
  @IsInt() @Min(64) maxHeaderBytes = 8192;
  /** Records of `e-` rooms older than this many seconds are hidden from reads and export. */
  @IsInt() @Min(1) ephemeralTtlSeconds = 900;
  /** Rooms holding at most one record are reaped after this idle time (whole hours, 1 h to 7 days). */
  @IsInt() @Min(3600) @Max(604_800) stillbornSeconds = 86_400;
  /** Rooms idle this long are reaped (the service's 7-day retention). */
  @IsInt() @Min(60) retentionSeconds = 604_800;
  /** Seconds between reaper passes. */
  @IsNumber() @Min(0.05) reapEverySeconds = 600;
  /** Room-count cap: creating a room beyond it is refused with 400. */
  @IsInt() @Min(1) maxRooms = 5120;
  /** Percent of the room cap kept for networks (/24, /48) holding no room (0: none); see RoomCreationBudget. */
  @IsInt() @Min(0) @Max(50) roomsReservePercent = 10;
  /** Notes per namespace (new notes past it are a 400); 0 = max rooms, and never below it (see noteCaps). */
  @IsInt() @Min(0) maxNotesPerNs = 0;
  /** Notes in total; 0 = 32 × max rooms, and never below 4 × max rooms (see noteCaps). */
  @IsInt() @Min(0) maxNotesTotal = 0;
  /** UTF-8 bytes all note values may total, in MiB: a new or longer value past it is a 400 (issue 18). */
  @IsInt() @Min(1) noteBytesMb = 64;
  /** Per-room ring size in bytes; past it the room is compacted to its newest half. */
  @IsInt() @Min(4096) ringBytes = 10 * 1024 * 1024;
  /** Total retained room bytes; past it new rooms are refused and rings shrink to their floor. */
  @IsInt() @Min(4096) roomBytesTotal = 5 * 1024 * 1024 * 1024;
  /** Memory budget for the in-memory newest-1-MiB tails of rooms; colder tails are reloaded from disk. */
  @IsInt() @Min(1) hotTailMb = 256;
  /** Memory budget for rendered read replies reused while their room is unchanged. */
  @IsInt() @Min(0) replyCacheMb = 64;
  /** Worker threads verifying Ed25519 signatures off the event loop; 0 verifies on it. */
  @IsInt() @Min(0) verifyWorkers = defaultVerifyWorkers();
  /**
   * V8 heap limit `npm start` passes as --max-old-space-size; checked against the budgets above, and
   * before node is started (scripts/start.sh): a tiny limit crashed V8 before this check could run.
   */
  @IsInt() @Min(256) @Max(1_048_576) heapMb = 1024;
  /** `s-maxage` for shareable reads (0 keeps `no-store`). */
  @IsInt() @Min(0) edgeCacheSeconds = 1;
  /** `s-maxage` for the companion documents (0 keeps `no-store`). */
  @IsInt() @Min(0) staticCacheSeconds = 300;
  /** Browser origins allowed to read replies cross-origin, comma-separated (empty: none). */
  @Accepts('comma-separated origins (scheme://host[:port], as a browser sends them) or *', isCorsOriginList)
  corsOrigins = '';
  /** Security contact for /.well-known/security.txt: an e-mail address or a URL (empty: not served). */
  @IsString() securityContact = '';
  /** Milliseconds a graceful shutdown waits for in-flight requests before closing connections. */
  @IsInt() @Min(0) shutdownGraceMs = 5000;
  /**
   * Ed25519 key the service signs room heads with (issue 29): a file holding the 32-byte seed as 64
   * hex digits (`npm run keygen`'s seed line). Empty: `<root>/service-key`, generated on first start.
   * The nodes of a cluster share one file, so they share one did:key.
   */
  @IsString() serviceKeyFile = '';
  /** `off` skips the room hash chain (no heads, no chain headers): for measuring its cost only (bench/). */
  @IsIn(['on', 'off']) roomChain: 'on' | 'off' = 'on';
  /** Log verbosity. */
  @IsIn(['debug', 'info', 'warn', 'error', 'silent']) logLevel:
    'debug' | 'info' | 'warn' | 'error' | 'silent' = 'info';
  /** Base URL used in documents; empty derives it from the Host header. */
  @Accepts('an absolute http:// or https:// URL without query or fragment, or empty', isPublicUrl)
  publicUrl = '';
  /** Event log backend: the embedded segmented log, or a NATS JetStream stream shared by N nodes (issue 14). */
  @IsIn(['file', 'nats']) logBackend: LogBackend = 'file';
  /** With the nats backend: NATS servers, comma-separated. */
  @Accepts(
    'comma-separated NATS servers: nats://host[:port], tls://host[:port] or host[:port]',
    isNatsServerList,
  )
  natsUrl = 'nats://127.0.0.1:4222';
  /** With the nats backend: the stream (created if missing, verified if present); subjects `chat.<stream>.v2.*`. */
  @Matches(/^[A-Za-z0-9_-]{1,64}$/) natsStream = 'agent-chat';
  /** With the nats backend: replicas of the stream (3 on a 3-server cluster survives one server lost). */
  @IsInt() @Min(1) @Max(5) natsReplicas = 1;
  /** With the nats backend: user name (with natsPassword), or empty. */
  @IsString() natsUser = '';
  /** With the nats backend: password for natsUser. */
  @IsString() natsPassword = '';
  /** With the nats backend: authentication token, or empty. */
  @IsString() natsToken = '';
  /** With the nats backend: path of a `.creds` file (JWT + NKey), or empty. */
  @IsString() natsCreds = '';
  /** With the nats backend: stream byte limit (-1: none); when full, writes are refused, history is kept. */
  @IsInt() @Min(-1) natsMaxBytes = -1;
  /** With the nats backend: Nats-Msg-Id de-duplication window in seconds. */
  @IsInt() @Min(1) natsDuplicateWindowSeconds = 120;
  /** With the nats backend: deadline in ms for connecting and for a whole write (every retry and wait included). */
  @IsInt() @Min(100) @Max(60_000) natsTimeoutMs = 5000;
  /**
   * With the nats backend: `snapshot` purges stream records below the oldest kept shared snapshot,
   * `keep` keeps the whole history (audit); empty: what the stream was created with (recorded in its
   * metadata: `snapshot` for a stream this version creates, `keep` for one created before).
   */
  @IsIn(['', 'keep', 'snapshot']) natsRetention: '' | 'keep' | 'snapshot' = '';
  /**
   * With the nats backend and retention `snapshot`: `object` copies records into the object store
   * `<stream>-archive` before a purge removes them (the whole history stays readable by the tools);
   * `off`: purged records are gone.
   */
  @IsIn(['off', 'object']) natsArchive: 'off' | 'object' = 'off';
  /** Bytes of records per archive chunk (a chunk ends after the record reaching it); same on every node. */
  @IsInt() @Min(1024) @Max(64 * 1024 * 1024) natsArchiveChunkBytes = 8 * 1024 * 1024;
  /**
   * With the nats backend: how long (ms) the stream may show less than this node applied before that
   * is a fork; meanwhile writes and applying wait (a replica answering during a leader election may
   * lag). 0: the first such view is a fork.
   */
  @IsInt() @Min(0) @Max(600_000) natsForkConfirmMs = 15_000;
  /** Shared snapshots (nats backend): one is due after this many events past the newest… */
  @IsInt() @Min(1) snapshotEveryEvents = 1_000_000;
  /** …or this many seconds after it (whichever comes first; 0: this node neither takes nor restores any). */
  @IsNumber() @Min(0) snapshotSeconds = 3600;
  /** How many shared snapshots to keep (the oldest bounds the stream under retention `snapshot`). */
  @IsInt() @Min(1) @Max(100) snapshotsKeep = 3;
  /** /readyz answers 503 while more committed log records than this wait to be applied here. */
  @IsInt() @Min(0) readyMaxLag = 1000;
  /** An event loop blocked this long (ms) is a stall: an error line at once, /healthz 503 for a minute after. */
  @IsInt() @Min(50) @Max(600_000) eventLoopStallMs = 2000;
  /** Port of the metrics listener (`GET /metrics`, Prometheus text); empty: no listener. */
  @Matches(/^(\d{1,5})?$/) metricsPort = '';
  /** Address of the metrics listener: loopback unless the operator opens it. */
  @IsString() metricsHost = '127.0.0.1';
  /** When set, a scrape must send `Authorization: Bearer <token>`. */
  @IsString() metricsToken = '';
  /** When set, `GET /stats` answers operator aggregates to requests whose X-Stats-Token equals it. */
  @IsString() statsToken = '';
  /**
   * Share of requests logged as one JSON line at info (1 all, 0 none: the hook is not installed).
   * Off by default: the hook alone costs ~14 µs of a ~19 µs read, even sampled (docs/decisions.md).
   */
  @IsNumber() @Min(0) @Max(1) requestLogSample = 0;
  /** OTLP/HTTP receiver (an OpenTelemetry collector) for traces, e.g. http://collector:4318; empty: off. */
  @Matches(/^(https?:\/\/[^\s/]+(\/\S*)?)?$/) otlpEndpoint = '';
  /** Extra headers of every trace export, `key=value` pairs separated by commas (a collector's API key). */
  @Matches(/^([^=,\s]+=[^,]*(,[^=,\s]+=[^,]*)*)?$/) otlpHeaders = '';
  /** Share of new traces recorded when tracing is on (a caller's traceparent decides for its own). */
  @IsNumber() @Min(0) @Max(1) traceSample = 1;
}

/** Derived, not configured: the reference's fixed numbers. */
export const FIXED_LIMITS = {
  messageChars: 4096,
  noteChars: 8192,
  readDefaultLimit: 50,
  readMaxLimit: 200,
  writeReplyMessages: 20,
  readWindowBytes: 1024 * 1024,
  maxRecordsPerRing: 81_920,
} as const;
