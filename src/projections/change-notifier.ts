import { Injectable } from '@nestjs/common';

type Finish = (changed: boolean) => void;

/**
 * Wakes long-polls after the projection has applied an append (never on the raw append, so a woken
 * reader always finds the message in the read model). One set of waiters per room; a wake-up, a
 * timeout or a disconnect removes the waiter, so nothing accumulates.
 */
@Injectable()
export class ChangeNotifier {
  private readonly waiters = new Map<string, Set<Finish>>();
  private closed = false;

  /** Resolves true when the room changes, false on timeout, abort or shutdown. */
  waitForChange(room: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.closed || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      let set = this.waiters.get(room);
      if (set === undefined) {
        set = new Set();
        this.waiters.set(room, set);
      }
      const waiters = set;
      const finish: Finish = (changed) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        waiters.delete(finish);
        if (waiters.size === 0 && this.waiters.get(room) === waiters) this.waiters.delete(room);
        resolve(changed);
      };
      const onAbort = (): void => finish(false);
      const timer = setTimeout(onAbort, timeoutMs);
      waiters.add(finish);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  notify(room: string): void {
    const set = this.waiters.get(room);
    if (set === undefined) return;
    for (const finish of [...set]) finish(true);
  }

  /** Shutdown: every parked long-poll answers now as if its wait ran out, and no new one parks. */
  releaseAll(): void {
    this.closed = true;
    for (const set of [...this.waiters.values()]) for (const finish of [...set]) finish(false);
  }

  /** Number of long-polls currently parked (all rooms). */
  get waiting(): number {
    let total = 0;
    for (const set of this.waiters.values()) total += set.size;
    return total;
  }
}
