import { jetstream } from '@nats-io/jetstream';
import {
  AppendOptions,
  AppendResult,
  AppliedScopeHeads,
  CommitListener,
  EventLog,
  LogRecord,
  ReadOptions,
} from '../event-log';
import { LogUnavailableError } from '../log.errors';
import { tooManyRecords } from './append-batch';
import { watchConnection } from './connection-watch';
import { StreamForkedError } from './nats-log.errors';
import { NatsLogOptions } from './nats-log.options';
import { DeliveryLag } from './delivery-lag';
import { soundPrefix, soundRead } from './sound-prefix';
import { ScopeHeads } from './scope-heads';
import { versionProblem } from './server-versions';
import { openStreamResources } from './stream-resources';
import { SnapshotStore } from '../snapshot-store';
import { StreamFloor } from './stream-floor';
import { checksum, StreamGuard } from './stream-guard';
import { readStream } from './stream-reader';
import { TailRecord } from './stream-tail';
import { SubjectLayout } from './subjects';
import { openStreamSession, StreamSession } from './stream-session';

/**
 * The EventLog on a NATS JetStream stream, shared by every node of a deployment (docs/scaling.md).
 * Offset = stream sequence − 1.
 *
 * Writes: every record goes to its scope's subject (subjects.ts); an append is sent in a batch
 * chained per scope (AppendChains) whose first message in each scope carries the precondition "the
 * scope's last record is the one this decision saw" — so writes to different rooms or notes through
 * different nodes never conflict, and a write that lost a race is refused whole and decided again
 * (LogConflictError). `append` resolves once NATS acknowledged it (with R3: a majority stored it).
 *
 * Reads: one ordered consumer (StreamTail) delivers every node's records in stream order; that is
 * "committed" here, what subscribers see and what the read models apply.
 *
 * History: the guard (StreamGuard) compares the stream with what this node applied — every 2 s, and
 * before anything is written or applied after a reconnect, a stream leader election or a consumer
 * reset (StreamVerifier). A stream that does not hold that history any more is a fork: the node stops
 * applying and refuses every write for good (writeFault), instead of writing on top of it.
 */
export class JetStreamEventLog implements EventLog {
  private conn: StreamSession | undefined;
  private state: 'new' | 'open' | 'closed' = 'new';
  private closing: Promise<void> | undefined;
  private committedNext = 0;
  private first = 0;
  private retention: 'keep' | 'snapshot' = 'keep';
  private disconnected: LogUnavailableError | undefined;
  private unsupported: LogUnavailableError | undefined;
  private readonly layout: SubjectLayout;
  private readonly heads = new ScopeHeads();
  /** The runner's heads (what the read models applied): preconditions are checked against them. */
  private applied: AppliedScopeHeads | undefined;
  private readonly floor = new StreamFloor();
  private readonly guard: StreamGuard;
  private readonly listeners = new Set<CommitListener>();
  private readonly lag = new DeliveryLag();

  constructor(private readonly options: NatsLogOptions) {
    this.layout = new SubjectLayout(options.stream);
    this.guard = new StreamGuard(options.stream, (f) => this.forked(f), { windowMs: options.forkConfirmMs });
  }

  async open(): Promise<void> {
    if (this.state !== 'new') throw new Error('JetStreamEventLog.open() may be called only once');
    this.state = 'open';
    const resources = await openStreamResources(this.options, this.layout, this.floor);
    const { nc, jsm, info, snapshots, purge } = resources;
    this.retention = resources.retention;
    try {
      this.committedNext = info.state.last_seq;
      this.first = Math.max(0, info.state.first_seq - 1);
      this.floor.saw(info.state.first_seq);
      this.conn = await openStreamSession({
        nc,
        jsm,
        options: this.options,
        layout: this.layout,
        guard: this.guard,
        floor: this.floor,
        heads: this.heads,
        snapshots,
        purge,
        lastSeq: info.state.last_seq,
        apply: (records) => this.apply(records),
        // Appends made before close() still go out; a fork or a lost connection stops them.
        blocked: () => this.guard.fork ?? this.unavailable(),
        context: () => ({ lost: this.disconnected, committedNext: this.committedNext }),
        acknowledged: (seq) => this.lag.acknowledged(seq),
      });
    } catch (error) {
      await resources.close();
      throw error;
    }
    void watchConnection(nc, this.options, (lost) => this.connectionChanged(lost));
    this.conn.watchdog.start();
    this.options.logger?.log(
      `JetStream stream ${this.options.stream}: offsets ${this.first}..${this.committedNext} ` +
        `(${this.options.replicas} replica(s), retention ${this.retention}, servers ${this.options.servers.join(',')})`,
    );
  }

  committedHead(): number {
    return this.committedNext;
  }

  firstOffset(): number {
    return this.first;
  }

  append(payloads: readonly Buffer[], options: AppendOptions = {}): Promise<AppendResult> {
    const refused = this.refusal() ?? tooManyRecords(payloads.length);
    if (refused) {
      options.onFailed?.();
      return Promise.reject(refused);
    }
    const scopes = payloads.map((_, i) => this.layout.scopeId(options.scopes?.[i]));
    const subjects = scopes.map((scope) => this.layout.subject(scope));
    return new Promise((resolve, reject) =>
      this.conn!.chains.append({
        payloads,
        subjects,
        scopes,
        readThrough: options.readThrough ?? this.committedNext,
        onFailed: options.onFailed,
        resolve,
        reject,
      }),
    );
  }

  read(from: number, options: ReadOptions = {}): AsyncIterable<LogRecord> {
    const until = Math.min(options.until ?? this.committedNext, this.committedNext);
    const start = Math.max(from, this.first);
    if (!this.conn || start >= until) return (async function* () {})();
    return soundRead(readStream(jetstream(this.conn.nc), this.layout, start, until), start, {
      stream: this.options.stream,
      guard: this.guard,
      applied: this.applied,
    });
  }

  useAppliedScopeHeads(heads: AppliedScopeHeads): void {
    this.applied = heads;
  }

  subscribe(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Nothing to do: a committed record is one the tail delivered from the stream, so it is stored
   * already (with the stream's own durability: docs/scaling.md). Appends still in flight are not
   * committed and no checkpoint names them. Waiting for them here (until no append was queued or in
   * flight) held checkpoints, and the snapshots and purges behind them, for seconds to tens of seconds
   * under a steady write load (bench/stream-bytes.bench.ts).
   */
  async sync(): Promise<void> {}

  writeFault(): Error | undefined {
    return this.guard.fork;
  }

  unavailable(): Error | undefined {
    return (
      this.disconnected ??
      this.unsupported ??
      this.conn?.verifier.verifying ??
      this.lag.stalled(this.options.timeoutMs)
    );
  }

  writeDeadlineMs(): number {
    return this.options.timeoutMs;
  }

  backlog(): number {
    return this.conn?.tail.backlog ?? 0;
  }

  snapshotStore(): SnapshotStore | undefined {
    return this.conn?.snapshots;
  }

  /**
   * Retention `snapshot`: purges below the oldest kept shared snapshot, archiving first when
   * CHAT_NATS_ARCHIVE says so (StreamPurge). A later node short of it restores a snapshot instead.
   */
  async purgeBefore(offset: number): Promise<void> {
    if (this.retention !== 'snapshot' || !this.conn || offset <= this.first) return;
    this.first = (await this.conn.purge.below(offset, this.first)) ?? this.first;
  }

  /** Archive writes that failed, each a purge not made (chat_nats_archive_failures_total). */
  archiveFailures(): number {
    return this.conn?.purge.failures ?? 0;
  }

  /**
   * Never deletes by checkpoint: other nodes, and any node starting from an empty CHAT_ROOT, replay the stream
   * from its first record, and one node's checkpoint says nothing about theirs (docs/scaling.md).
   */
  async truncateBefore(): Promise<void> {}

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.state = 'closed';
    const conn = this.conn;
    if (!conn) return;
    conn.watchdog.stop();
    conn.verifier.stop();
    await conn.chains.drain();
    conn.tail.stop();
    await conn.snapshots.close();
    await conn.purge.close();
    await conn.nc.close();
  }

  /** Why an append made now is refused at once, if it is. */
  private refusal(): Error | undefined {
    if (this.state !== 'open' || this.closing || !this.conn) {
      return new LogUnavailableError(this.closing ? 'closed' : 'not open');
    }
    return this.guard.fork ?? this.unavailable();
  }

  /** The tail delivered records (any node's) and the verifier let them through: apply them. */
  private apply(delivered: readonly TailRecord[]): void {
    if (this.guard.fork) return;
    const first = delivered[0]?.offset;
    if (first !== undefined && first > this.committedNext) {
      this.guard.missed(this.committedNext + 1, first);
      return;
    }
    const records = soundPrefix(delivered, this.heads, this.guard, this.applied);
    if (records.length === 0) return;
    this.committedNext = records[records.length - 1].offset + 1;
    for (const record of records) {
      const seq = record.offset + 1;
      if (record.scope !== undefined) this.heads.deliver(record.scope, seq);
      this.guard.applied({ seq, subject: record.subject, crc: checksum(record.payload) });
    }
    this.lag.delivered(this.committedNext);
    for (const listener of [...this.listeners]) {
      try {
        listener(records);
      } catch (error) {
        this.options.logger?.warn(`commit listener threw: ${(error as Error).message}`);
      }
    }
  }

  private connectionChanged(lost: LogUnavailableError | undefined): void {
    this.disconnected = lost;
    if (lost || !this.conn) return;
    const info = this.conn.nc.info;
    const problem =
      info &&
      versionProblem(
        { name: info.server_name, url: `${info.host}:${info.port}`, version: info.version },
        this.options.replicas,
      );
    this.unsupported = problem
      ? new LogUnavailableError(`connected to an unsupported server: ${problem}`)
      : undefined;
    if (problem) this.options.logger?.warn(this.unsupported!.message);
    this.conn.verifier.disrupted('reconnected to NATS');
  }

  /** The stream's history is not this node's: stop applying, refuse everything, say it loudly once. */
  private forked(fork: StreamForkedError): void {
    this.options.logger?.error?.(fork.message);
    this.conn?.tail.stop();
    this.conn?.chains.failQueued(fork);
  }
}
