import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BuildInfo, readBuildInfo } from '../build-info';

/** Live figures the metrics read when scraped (gauges are computed, never kept in step by hand). */
export interface MetricSources {
  projectionLag(): number;
  checkpointAgeSeconds(): number;
  parkedLongPolls(): number;
  openStreams(): number;
  rooms(): number;
  notes(): number;
  noteBytes(): number;
  /** 1 while the event log takes appends, 0 while it refuses them (a poisoned log, NATS unreachable). */
  logWritable(): number;
  /** Records the shared log holds that this node has not received yet (nats backend; 0 on file). */
  logBacklog(): number;
  /** Event-loop stalls since start (src/runtime). */
  eventLoopStalls(): number;
  /** Archive writes that failed since start, each a purge not made (nats backend, CHAT_NATS_ARCHIVE). */
  archiveFailures(): number;
  /** 1 while the shared log's history is not the one this node applied (it refuses writes), else 0. */
  logForked(): number;
  /** The public server's connections (src/http/connections), or null where none is governed. */
  connections(): ConnectionFigures | null;
}

/** Open connections and how many the connection limits closed since start, by reason. */
export interface ConnectionFigures {
  readonly open: number;
  readonly idle: number;
  readonly closed: Readonly<Record<string, number>>;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
const IO_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 1];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096];

/**
 * Every Prometheus metric of the process, in one registry (prom-client). Counters and histograms are
 * updated where things happen (an HTTP hook, the group committer, the checkpointer, the projection
 * runner); gauges read their sources at scrape time. Names and meanings: docs/operations.md (Metrics).
 */
/** The reference's lifetime request counters (/stats, contract §15.6), kept beside the metrics. */
export interface LifetimeCounters {
  read: number;
  write: number;
  rate_limited: number;
  duplicate: number;
  /** Long-polls (`wait=`) answered. */
  followed: number;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly lifetime: LifetimeCounters = { read: 0, write: 0, rate_limited: 0, duplicate: 0, followed: 0 };
  /** Requests Fastify has routed whose reply has not finished or been abandoned (the request hook counts them). */
  inFlight = 0;
  private sources: MetricSources | null = null;

  readonly requests = new Counter({
    name: 'chat_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  /**
   * By status class (`2xx`…`5xx`), not code: a slow refusal and a slow read are told apart, and the
   * series stay ~5 per route instead of one per code (the counter above has the exact code).
   */
  readonly requestSeconds = new Histogram({
    name: 'chat_http_request_duration_seconds',
    help: 'Time from request to reply sent, by method, route template and status class (2xx, 4xx, 5xx).',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly refusals = new Counter({
    name: 'chat_refusals_total',
    help: 'Requests refused, by status and kind (rate bucket for 429, error code otherwise).',
    labelNames: ['status', 'kind'] as const,
    registers: [this.registry],
  });
  readonly writes = new Counter({
    name: 'chat_writes_total',
    help: 'Acknowledged writes applied since start, by kind (message, note).',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly logWriteSeconds = new Histogram({
    name: 'chat_log_append_seconds',
    help: 'Time to write one group-commit batch to the log file (before any fsync).',
    buckets: IO_BUCKETS,
    registers: [this.registry],
  });
  readonly logSyncSeconds = new Histogram({
    name: 'chat_log_fsync_seconds',
    help: 'Time of one fdatasync of the log.',
    buckets: IO_BUCKETS,
    registers: [this.registry],
  });
  readonly batchRecords = new Histogram({
    name: 'chat_log_batch_records',
    help: 'Records per group-commit batch.',
    buckets: BATCH_BUCKETS,
    registers: [this.registry],
  });
  readonly conflictRetries = new Counter({
    name: 'chat_write_conflict_retries_total',
    help: 'Writes decided again because another node wrote to the same room or note first (nats backend).',
    registers: [this.registry],
  });
  readonly checkpointSeconds = new Histogram({
    name: 'chat_checkpoint_duration_seconds',
    help: 'Time to write one checkpoint (log sync, ring sync, snapshot file).',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  constructor(build: BuildInfo = readBuildInfo()) {
    collectDefaultMetrics({ register: this.registry });
    // The usual `_info` idiom: always 1, the build in its labels, so a query can join or count builds.
    new Gauge({
      name: 'chat_build_info',
      help: 'The running build: package version, git commit (empty: unknown) and Node.js version; always 1.',
      labelNames: ['version', 'commit', 'node'] as const,
      registers: [this.registry],
    })
      .labels(build.version ?? '', build.commit ?? '', process.version)
      .set(1);
    const inFlight = (): number => this.inFlight;
    new Gauge({
      name: 'chat_http_requests_in_flight',
      help: 'Requests received and not yet answered (parked long-polls and open streams included).',
      registers: [this.registry],
      collect() {
        this.set(inFlight());
      },
    });
    // prom-client also publishes these three gauges under a `_total` name, which Prometheus reserves
    // for counters (promtool refuses them); the same figures stay under nodejs_active_*.
    for (const name of ['handles', 'requests', 'resources']) {
      this.registry.removeSingleMetric(`nodejs_active_${name}_total`);
    }
    const gauge = (name: string, help: string, read: (s: MetricSources) => number | null): void => {
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const value = sources() === null ? null : read(sources()!);
          if (value !== null) this.set(value);
        },
      });
    };
    const sources = (): MetricSources | null => this.sources;
    gauge('chat_projection_lag_records', 'Log records committed but not yet applied (head − applied).', (s) =>
      s.projectionLag(),
    );
    gauge(
      'chat_checkpoint_age_seconds',
      'Seconds since the newest checkpoint this process wrote (or since start).',
      (s) => s.checkpointAgeSeconds(),
    );
    gauge('chat_long_polls_parked', 'Long-polls waiting for a message now.', (s) => s.parkedLongPolls());
    gauge('chat_streams_open', 'Event streams (SSE) open now.', (s) => s.openStreams());
    gauge(
      'chat_connections_open',
      'Open connections on the public port.',
      (s) => s.connections()?.open ?? null,
    );
    gauge(
      'chat_connections_idle',
      'Open connections with no request in flight (the first closed at the connection total).',
      (s) => s.connections()?.idle ?? null,
    );
    new Counter({
      name: 'chat_connections_closed_total',
      help: 'Connections closed by the connection limits, by reason (share, full, shed_idle, send_deadline, pipelined).',
      labelNames: ['reason'] as const,
      registers: [this.registry],
      collect() {
        const figures = sources()?.connections();
        if (figures === null || figures === undefined) return;
        this.reset();
        for (const [reason, count] of Object.entries(figures.closed)) this.inc({ reason }, count);
      },
    });
    gauge('chat_rooms', 'Live rooms.', (s) => s.rooms());
    gauge('chat_notes', 'Stored notes.', (s) => s.notes());
    gauge('chat_note_bytes', 'UTF-8 bytes of all note values.', (s) => s.noteBytes());
    gauge('chat_log_writable', '1 while the event log takes appends, 0 while it refuses them.', (s) =>
      s.logWritable(),
    );
    gauge(
      'chat_log_backlog_records',
      'Records the shared log (NATS stream) holds that this node has not received yet.',
      (s) => s.logBacklog(),
    );
    gauge(
      'chat_log_forked',
      '1 while the NATS stream does not hold the history this node applied (writes refused), else 0.',
      (s) => s.logForked(),
    );
    // Counters read from a running total the source keeps: what the source added since the last scrape.
    const counted = (name: string, help: string, read: (s: MetricSources) => number): void => {
      let seen = 0;
      new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          const now = sources() === null ? seen : read(sources()!);
          if (now > seen) this.inc(now - seen);
          seen = now;
        },
      });
    };
    counted(
      'chat_event_loop_stalls_total',
      'Times the event loop was blocked longer than CHAT_EVENT_LOOP_STALL_MS.',
      (s) => s.eventLoopStalls(),
    );
    counted(
      'chat_nats_archive_failures_total',
      'Archive writes that failed (CHAT_NATS_ARCHIVE=object); each one left the stream unpurged.',
      (s) => s.archiveFailures(),
    );
  }

  /** Connects the gauges to the live read models (once the application is built). */
  attach(sources: MetricSources): void {
    this.sources = sources;
  }
}
