import { Worker } from 'node:worker_threads';
import { verifyEd25519 } from '../ed25519-verifier';
import { VerifyBatchReply, VerifyBatchRequest } from './ed25519-verify.worker';
import { encodeBatch, VerifyItem } from './verify-batch.codec';
import { verifyWorkerEntry } from './worker-entry';

export interface VerifyPoolOptions {
  /** Worker threads; 0 verifies on the calling thread (synchronously, answered as a resolved promise). */
  readonly workers: number;
  /** Most verifications sent to a worker in one message. */
  readonly maxBatch?: number;
}

interface Pending {
  readonly item: VerifyItem;
  readonly resolve: (verdict: boolean) => void;
  verdict: boolean | undefined;
}

interface PoolWorker {
  readonly thread: Worker;
  /** Batches sent and not answered, by id: kept so a dead worker's work can be redone here. */
  readonly inFlight: Map<number, Pending[]>;
  outstanding: number;
}

const DEFAULT_MAX_BATCH = 64;

/**
 * Ed25519 verification (verifyEd25519, libsodium's verdicts) on worker threads, so a flood of signed
 * writes costs the event loop a buffer copy per request instead of ~120 µs of curve arithmetic.
 *
 * Requests made during one turn of the event loop are flushed together at the next check phase
 * (setImmediate), cut into batches of at most `maxBatch`, each sent as one buffer (verify-batch.codec.ts) to
 * the worker with the least outstanding work. Workers start on first use, so a process that never sees a
 * signature never pays for them.
 *
 * Invariants: verdicts are released in request order, whatever order the workers answer in (two
 * signed writes of one signer, pipelined, reach the stale-nonce rule in the order they arrived, as
 * when verification was synchronous). A worker that dies is replaced and its unanswered items are
 * verified on this thread, so every request gets the verdict verifyEd25519 gives, never an error.
 */
export class Ed25519VerifyPool {
  private readonly maxBatch: number;
  private readonly workers: PoolWorker[] = [];
  /** Every unreleased request, in request order; `head` is the first not yet released. */
  private ordered: Pending[] = [];
  private head = 0;
  private unsent: Pending[] = [];
  private flushScheduled = false;
  private nextBatchId = 1;
  private closed = false;

  constructor(private readonly options: VerifyPoolOptions) {
    if (!Number.isInteger(options.workers) || options.workers < 0)
      throw new RangeError('workers must be ≥ 0');
    this.maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  }

  /** True iff libsodium would accept `signature` by `publicKey` over `message` (see verifyEd25519). */
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
    if (this.options.workers === 0 || this.closed) {
      return Promise.resolve(verifyEd25519(publicKey, message, signature));
    }
    return new Promise((resolve) => {
      const pending: Pending = { item: { publicKey, message, signature }, resolve, verdict: undefined };
      this.ordered.push(pending);
      // Wrong lengths are refused without a round trip (verifyEd25519 refuses them the same way).
      if (publicKey.length !== 32 || signature.length !== 64) this.settle(pending, false);
      else this.enqueue(pending);
    });
  }

  /** Stops the workers; requests still waiting are verified on this thread first. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.unsent) this.settle(pending, verifyOf(pending));
    this.unsent = [];
    const workers = this.workers.splice(0);
    for (const worker of workers) this.redoInline(worker);
    await Promise.all(workers.map((worker) => worker.thread.terminate()));
  }

  private enqueue(pending: Pending): void {
    this.unsent.push(pending);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.closed) return;
    const unsent = this.unsent;
    this.unsent = [];
    for (let start = 0; start < unsent.length; start += this.maxBatch) {
      this.send(unsent.slice(start, start + this.maxBatch));
    }
  }

  private send(batch: Pending[]): void {
    const worker = this.leastBusyWorker();
    const id = this.nextBatchId++;
    worker.inFlight.set(id, batch);
    if (worker.outstanding === 0) worker.thread.ref();
    worker.outstanding += batch.length;
    const encoded = encodeBatch(batch.map((pending) => pending.item));
    const request: VerifyBatchRequest = { id, batch: encoded };
    worker.thread.postMessage(request);
  }

  private leastBusyWorker(): PoolWorker {
    if (this.workers.length < this.options.workers) return this.startWorker();
    let best = this.workers[0];
    for (const worker of this.workers) if (worker.outstanding < best.outstanding) best = worker;
    return best;
  }

  private startWorker(): PoolWorker {
    const { file, options } = verifyWorkerEntry();
    const worker: PoolWorker = { thread: new Worker(file, options), inFlight: new Map(), outstanding: 0 };
    worker.thread.unref();
    worker.thread.on('message', (reply: VerifyBatchReply) => this.answered(worker, reply));
    worker.thread.on('error', () => this.lost(worker));
    worker.thread.on('exit', () => this.lost(worker));
    this.workers.push(worker);
    return worker;
  }

  private answered(worker: PoolWorker, { id, verdicts }: VerifyBatchReply): void {
    const batch = worker.inFlight.get(id);
    if (batch === undefined) return;
    worker.inFlight.delete(id);
    worker.outstanding -= batch.length;
    if (worker.outstanding === 0) worker.thread.unref();
    for (let i = 0; i < batch.length; i++) this.settle(batch[i], verdicts[i] === 1);
  }

  /** A worker died (or was terminated): redo its unanswered items here; later batches use a new one. */
  private lost(worker: PoolWorker): void {
    const index = this.workers.indexOf(worker);
    if (index !== -1) this.workers.splice(index, 1);
    this.redoInline(worker);
  }

  private redoInline(worker: PoolWorker): void {
    for (const batch of worker.inFlight.values()) {
      for (const pending of batch) this.settle(pending, verifyOf(pending));
    }
    worker.inFlight.clear();
    worker.outstanding = 0;
  }

  /** Records a verdict, then releases every leading request that has one, in request order. */
  private settle(pending: Pending, verdict: boolean): void {
    pending.verdict = verdict;
    while (this.head < this.ordered.length && this.ordered[this.head].verdict !== undefined) {
      const next = this.ordered[this.head++];
      next.resolve(next.verdict === true);
    }
    if (this.head === this.ordered.length) {
      this.ordered = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.ordered.length) {
      this.ordered = this.ordered.slice(this.head);
      this.head = 0;
    }
  }
}

function verifyOf({ item }: Pending): boolean {
  return verifyEd25519(item.publicKey, item.message, item.signature);
}
