import { Worker } from 'node:worker_threads';
import { CELL, CELLS, STALL_WORKER_SOURCE, StallWorkerData } from './stall-watch.worker';

/** How long /healthz keeps reporting a stall after the loop ran again. */
export const STALL_REPORTED_MS = 60_000;

export interface EventLoopWatchOptions {
  /** A loop that has not run for this long is stalled (CHAT_EVENT_LOOP_STALL_MS). */
  readonly thresholdMs: number;
  /** Where the worker writes its lines (default 1, the service log); -1: nowhere. */
  readonly fd?: number;
}

/** One stall, as the main thread learnt of it once it ran again. */
export interface Stall {
  readonly ms: number;
  readonly endedAt: number;
}

/**
 * Event-loop stall detector (issue 24): a loop that stops turning — a synchronous spin, a microtask
 * loop that never yields — cannot report anything itself, so a worker thread watches a heartbeat the
 * main thread bumps on a timer, and writes an error line *while* the loop is blocked. Once the loop
 * runs again it learns the stall's length: /healthz then fails, naming it, for STALL_REPORTED_MS (a
 * blocked loop cannot answer at all, which a probe's timeout catches), and the count goes to
 * chat_event_loop_stalls_total.
 */
export class EventLoopWatch {
  private cells: Int32Array | undefined;
  private worker: Worker | undefined;
  private timer: NodeJS.Timeout | undefined;
  private last: Stall | undefined;
  private total = 0;

  constructor(private readonly options: EventLoopWatchOptions) {}

  start(): void {
    if (this.worker) return;
    const buffer = new SharedArrayBuffer(CELLS * Int32Array.BYTES_PER_ELEMENT);
    this.cells = new Int32Array(buffer);
    const pollMs = Math.max(10, Math.min(250, Math.floor(this.options.thresholdMs / 4)));
    const workerData: StallWorkerData = {
      buffer,
      thresholdMs: this.options.thresholdMs,
      pollMs,
      fd: this.options.fd ?? 1,
    };
    this.worker = new Worker(STALL_WORKER_SOURCE, { eval: true, workerData });
    this.worker.unref();
    this.timer = setInterval(() => this.beat(), Math.max(5, Math.floor(pollMs / 2)));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.cells) Atomics.store(this.cells, CELL.STOP, 1);
    await this.worker?.terminate();
    this.worker = undefined;
  }

  /** Stalls seen since start. */
  get stalls(): number {
    this.collect();
    return this.total;
  }

  /** The stall to report now (one that ended within STALL_REPORTED_MS, or is being reported), if any. */
  recent(now = Date.now()): Stall | undefined {
    this.collect(now);
    // Flagged and not measured yet, yet this code runs: a stall that has just ended. The worker
    // measures it at its next poll.
    if (this.cells && Atomics.load(this.cells, CELL.BLOCKED_NOW) === 1) {
      return { ms: this.options.thresholdMs, endedAt: now };
    }
    return this.last !== undefined && now - this.last.endedAt < STALL_REPORTED_MS ? this.last : undefined;
  }

  private beat(): void {
    if (!this.cells) return;
    Atomics.add(this.cells, CELL.BEAT, 1);
    this.collect();
  }

  /** Takes the length of a stall the worker measured once the loop ran again. */
  private collect(now = Date.now()): void {
    const ms = this.cells ? Atomics.exchange(this.cells, CELL.STALLED_MS, 0) : 0;
    if (ms === 0) return;
    this.last = { ms, endedAt: now };
    this.total++;
  }
}
