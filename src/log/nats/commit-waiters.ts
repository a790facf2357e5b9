import { LogUnavailableError } from '../log.errors';

interface Waiter {
  readonly next: number;
  readonly resolve: () => void;
}

/**
 * Appenders (and the re-synchronisation) waiting for the tail to deliver every record below an
 * offset. Each wait has a deadline: a record NATS acknowledged but this node never received back
 * (connection lost in between) answers 503 instead of holding the request.
 */
export class CommitWaiters {
  private waiters: Waiter[] = [];

  constructor(private readonly timeoutMs: number) {}

  /** Resolves once `release` reports `next` or more; `committed` is the tail's position now. */
  wait(next: number, committed: number): Promise<void> {
    if (committed >= next) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new LogUnavailableError(`record ${next - 1} acknowledged but not delivered back in time`));
      }, this.timeoutMs);
      const waiter: Waiter = {
        next,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** The tail delivered everything below `committed`. */
  release(committed: number): void {
    const ready = this.waiters.filter((w) => w.next <= committed);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.next > committed);
    for (const waiter of ready) waiter.resolve();
  }
}
