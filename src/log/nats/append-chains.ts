import { LogConflictError } from '../log.errors';
import { ScopeHeads } from './scope-heads';
import { Batch, QueuedAppend } from './append-batch';
import { OutgoingMessage } from './publish-batch';

/** What the chains need from the log around them. */
export interface ChainIo {
  /** Sends one batch; resolves with the stream sequence of its last message. */
  send(messages: readonly OutgoingMessage[]): Promise<number>;
  /** The stream sequence of the last record in the scope (0: none), asked from the stream. */
  lookup(scope: string): Promise<number>;
  /** The stream's first sequence as this node last saw it (records below it were purged). */
  floor(): number;
  /** Asks the stream for its first sequence now (and remembers it for `floor`). */
  refreshFloor(): Promise<number>;
  /** Why nothing may be sent right now (connection lost, stream being verified, fork), if so. */
  blocked(): Error | undefined;
  /**
   * The error a refused or unanswered batch fails with (`expected`: its preconditions); a promise
   * when the stream must be asked first (a refusal that may stem from a purge).
   */
  failure(error: unknown, expected: ReadonlyMap<string, number | undefined>): Error | Promise<Error>;
}

/**
 * The appends of one node, chained per scope (docs/scaling.md, "How a write is stored").
 *
 * Invariants:
 * - a scope has at most one unacknowledged batch at the head of its chain; a later append to the
 *   scope joins the batch still open behind it (sent together, as one atomic batch, when the one
 *   ahead is acknowledged) or waits in a new one: per-scope group commit, one round trip per batch;
 * - a batch carries, on the first message of each of its scopes, the precondition "the scope's last
 *   record is X", where X was read in the synchronous step of the decision that brought the scope
 *   (ScopeHeads), or is the acknowledged last sequence of the batch ahead of it in that chain;
 * - when X is "none" (0) or lies below the stream's first sequence (purged), the batch reads that
 *   first sequence from the stream before it is sent and carries "no record" with it (the floor):
 *   NATS checks "none" against what it holds, every node checks the floor against what it knew
 *   (soundPrefix);
 * - when a batch fails, every batch chained behind it fails too, in the same synchronous step, each
 *   append's `onFailed` before any promise settles: they were decided against its state.
 * Appends to disjoint scopes never wait for each other and may be stored in any order.
 */
export class AppendChains {
  /** The newest batch of each scope's chain (not yet acknowledged). */
  private readonly tails = new Map<string, Batch>();
  private readonly ready = new Set<Batch>();
  private readonly inFlight = new Set<Promise<void>>();
  private scheduled = false;
  private idle: Array<() => void> = [];

  constructor(
    private readonly heads: ScopeHeads,
    private readonly io: ChainIo,
  ) {}

  append(entry: QueuedAppend): void {
    const scopes = new Set(entry.scopes);
    const seen = new Map<string, number | undefined>();
    try {
      for (const scope of scopes)
        if (!this.tails.has(scope)) seen.set(scope, this.heads.lastSeen(scope, entry.readThrough));
    } catch (conflict) {
      entry.onFailed?.();
      entry.reject(conflict as Error);
      return;
    }
    let target: Batch | undefined;
    for (const scope of scopes) {
      const tail = this.tails.get(scope);
      if (tail === undefined) continue;
      if (tail.state !== 'open' || (target !== undefined && target !== tail)) {
        target = undefined;
        break;
      }
      target = tail;
    }
    if (target === undefined || !target.fits(entry)) target = new Batch();
    for (const scope of scopes) this.link(target, scope, entry.readThrough, seen.get(scope));
    target.add(entry);
    if (target.predecessors.size === 0) this.ready.add(target);
    this.schedule();
  }

  /** Resolves once every append made so far is stored or failed. */
  drain(): Promise<void> {
    if (this.tails.size === 0 && this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Fails every append not yet sent (the log closed, or found the stream forked). */
  failQueued(error: Error): void {
    const queued = [...this.tails.values()].filter((batch) => batch.state === 'open');
    for (const batch of queued) if (batch.state === 'open') this.fail(batch, error);
  }

  /** Adds `scope` to `batch`: behind the scope's chain, or with what the deciding write saw (`seen`). */
  private link(batch: Batch, scope: string, readThrough: number, seen: number | undefined): void {
    if (batch.expected.has(scope)) return;
    const tail = this.tails.get(scope);
    if (tail !== undefined) {
      batch.predecessors.add(tail);
      (tail.successors ??= new Map()).set(scope, batch);
      batch.expected.set(scope, undefined);
    } else {
      batch.expected.set(scope, seen);
      if (seen === undefined) batch.misses.set(scope, readThrough);
    }
    this.tails.set(scope, batch);
  }

  /** Sends at the end of this turn: appends decided in the same turn share batches and one socket write. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batches = [...this.ready];
      this.ready.clear();
      for (const batch of batches) this.track(this.dispatch(batch));
      this.settleIdle();
    });
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      this.settleIdle();
    });
  }

  /**
   * Sends a ready batch. Without scopes to look up it sends in this very step, so every batch of one
   * turn is handed to the client before its flush (a microtask): one socket write for all of them
   * (separate writes cost ~20 % of the service's CPU under a write load, --cpu-prof).
   */
  private dispatch(batch: Batch): Promise<void> {
    if (batch.state !== 'open') return Promise.resolve();
    const blocked = this.io.blocked();
    if (blocked) {
      this.fail(batch, blocked);
      return Promise.resolve();
    }
    if (batch.misses.size === 0 && !this.belowFloor(batch)) return this.send(batch);
    batch.state = 'resolving';
    return this.resolve(batch).then(
      () => this.send(batch),
      (error: unknown) =>
        error instanceof LogConflictError ? this.fail(batch, error) : this.failWith(batch, error),
    );
  }

  private send(batch: Batch): Promise<void> {
    batch.state = 'sent';
    return this.io.send(this.messagesOf(batch)).then(
      (lastSeq) => this.stored(batch, lastSeq),
      (error: unknown) => this.failWith(batch, error),
    );
  }

  /** Fails `batch` with what the stream's refusal (or silence) means, once that is known. */
  private async failWith(batch: Batch, error: unknown): Promise<void> {
    this.fail(batch, await this.io.failure(error, batch.expected));
  }

  /** Whether a known precondition names no record or one below the stream's first sequence. */
  private belowFloor(batch: Batch): boolean {
    const floor = this.io.floor();
    for (const seq of batch.expected.values()) if (seq !== undefined && seq < floor) return true;
    return false;
  }

  /**
   * Scopes nobody here knew are looked up: their last record must be one the deciding write had
   * applied. Then, when a scope has no record or only purged ones, the stream's first sequence is
   * read — after the lookups, so no record of the scope the lookup missed lies at or above it — and
   * such scopes go with "no record" and that floor.
   */
  private async resolve(batch: Batch): Promise<void> {
    const lookups = [...batch.misses].map(async ([scope, readThrough]) => {
      const seq = batch.expected.get(scope) ?? (await this.io.lookup(scope));
      if (seq - 1 >= readThrough) throw new LogConflictError(seq - 1, `${scope} moved at sequence ${seq}`);
      batch.expected.set(scope, seq);
      this.heads.deliver(scope, seq);
    });
    await Promise.all(lookups);
    if (!this.belowFloor(batch)) return;
    batch.floor = await this.io.refreshFloor();
    for (const [scope, seq] of batch.expected) if (seq! < batch.floor) batch.expected.set(scope, 0);
  }

  private messagesOf(batch: Batch): OutgoingMessage[] {
    const messages: OutgoingMessage[] = [];
    const preconditioned = new Set<string>();
    for (const entry of batch.appends) {
      entry.payloads.forEach((payload, i) => {
        const scope = entry.scopes[i];
        const first = !preconditioned.has(scope);
        if (first) preconditioned.add(scope);
        const expect = first ? batch.expected.get(scope)! : undefined;
        // A floor of 1 says nothing was purged: "no record" then means what it always did.
        const floor = expect === 0 && batch.floor > 1 ? batch.floor : undefined;
        messages.push({ subject: entry.subjects[i], payload, expect, floor });
      });
    }
    return messages;
  }

  private stored(batch: Batch, lastSeq: number): void {
    batch.state = 'done';
    let seq = lastSeq - batch.messages + 1;
    const lastOf = new Map<string, number>();
    for (const entry of batch.appends) {
      const first = seq;
      for (const scope of entry.scopes) lastOf.set(scope, seq++);
      // Offsets are stream sequences minus one.
      entry.resolve({ first: first - 1, next: seq - 1 });
    }
    for (const [scope, last] of lastOf) {
      this.heads.acknowledge(scope, last);
      if (this.tails.get(scope) === batch) this.tails.delete(scope);
      const next = batch.successors?.get(scope);
      if (next === undefined) continue;
      next.expected.set(scope, last);
      next.predecessors.delete(batch);
      if (next.predecessors.size === 0 && next.state === 'open') this.ready.add(next);
    }
    if (this.ready.size > 0) this.schedule();
  }

  /** Fails `batch` and everything chained behind it, `onFailed` first, all in this step. */
  private fail(root: Batch, error: Error): void {
    const failed = [root];
    for (let i = 0; i < failed.length; i++) {
      for (const next of failed[i].successors?.values() ?? []) if (!failed.includes(next)) failed.push(next);
    }
    for (const batch of failed) {
      batch.state = 'done';
      this.ready.delete(batch);
      for (const scope of batch.expected.keys())
        if (this.tails.get(scope) === batch) this.tails.delete(scope);
      for (const before of batch.predecessors) {
        for (const [scope, next] of before.successors ?? [])
          if (next === batch) before.successors!.delete(scope);
      }
    }
    for (const batch of failed) for (const entry of batch.appends) entry.onFailed?.();
    for (const batch of failed) for (const entry of batch.appends) entry.reject(error);
    this.settleIdle();
  }

  private settleIdle(): void {
    if (this.tails.size > 0 || this.inFlight.size > 0 || this.idle.length === 0) return;
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
