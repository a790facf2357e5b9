import { LogUnavailableError } from '../log.errors';

/**
 * This node's writes that NATS acknowledged and the tail has not delivered back yet. A write is
 * answered only once its node applied it; while the tail is stuck (a consumer lost with a server,
 * being replaced) every write would be stored and still answered 503 at its deadline, which invites
 * clients to send it again. So once an acknowledged write has waited longer than the write deadline,
 * the node refuses new writes at once (nothing stored; /readyz says why) until the tail caught up.
 */
export class DeliveryLag {
  /** Acknowledged last sequences of batches, oldest first, with when they were acknowledged. */
  private readonly waiting = new Map<number, number>();

  acknowledged(seq: number, at = Date.now()): void {
    this.waiting.set(seq, at);
  }

  /** The tail delivered everything up to `seq`. */
  delivered(seq: number): void {
    for (const waited of this.waiting.keys()) {
      if (waited > seq) break;
      this.waiting.delete(waited);
    }
  }

  /** Why writes wait, if the oldest undelivered write is older than `limitMs`. */
  stalled(limitMs: number, now = Date.now()): LogUnavailableError | undefined {
    const oldest = this.waiting.entries().next().value;
    if (oldest === undefined || now - oldest[1] <= limitMs) return undefined;
    return new LogUnavailableError(
      `this node's stream tail has not delivered record ${oldest[0]} back for ${((now - oldest[1]) / 1000).toFixed(1)} s ` +
        '(acknowledged by NATS); new writes wait until it caught up',
    );
  }
}
