/**
 * Defers publishes to the end of the current turn of the event loop, then sends them in call order.
 *
 * The NATS client flushes its outbound buffer once per microtask checkpoint, so publishes made from
 * separate HTTP requests (separate macrotasks) each cost their own socket write: ~20 % of the
 * service's CPU under a write load (--cpu-prof). Sent together from one setImmediate, a turn's
 * publishes share one write, as the file log's group commit shares one fdatasync.
 */
export class PublishQueue {
  private queued: (() => void)[] = [];
  private scheduled = false;

  /** Publishes waiting for the end of this turn. */
  get size(): number {
    return this.queued.length;
  }

  /** Runs `send` at the end of this turn, after the publishes deferred before it. */
  defer<T>(send: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push(() => void send().then(resolve, reject));
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const queued = this.queued;
    this.queued = [];
    this.scheduled = false;
    for (const send of queued) send();
  }
}
