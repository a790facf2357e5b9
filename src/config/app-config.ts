import { IsIn, IsInt, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';

export type FsyncPolicy = 'always' | 'interval' | 'none';
export type LogRetention = 'compact' | 'keep';

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
  /** Per-room ring size in bytes; past it the room is compacted to its newest half. */
  @IsInt() @Min(4096) ringBytes = 10 * 1024 * 1024;
  /** Total retained room bytes; past it new rooms are refused and rings shrink to their floor. */
  @IsInt() @Min(4096) roomBytesTotal = 5 * 1024 * 1024 * 1024;
  /** Memory budget for the in-memory newest-1-MiB tails of rooms; colder tails are reloaded from disk. */
  @IsInt() @Min(1) hotTailMb = 256;
  /** `s-maxage` for shareable reads (0 keeps `no-store`). */
  @IsInt() @Min(0) edgeCacheSeconds = 1;
  /** Milliseconds a graceful shutdown waits for in-flight requests before closing connections. */
  @IsInt() @Min(0) shutdownGraceMs = 5000;
  /** Log verbosity. */
  @IsIn(['debug', 'info', 'warn', 'error', 'silent']) logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent' =
    'info';
  /** Base URL used in documents; empty derives it from the Host header. */
  @IsOptional() @IsString() publicUrl = '';
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
