import { LogConflictError } from '../log.errors';

/** How many scopes' last sequences are remembered; a forgotten one is asked from the stream again. */
const MAX_SCOPES = 100_000;

/**
 * The stream sequence of the last record this node knows in each scope: records the tail delivered
 * (so the read models applied them) and this node's own acknowledged appends not delivered back yet.
 * Each append's precondition for a scope is read here, in the synchronous step of its decision, so it
 * names exactly the last record that decision saw.
 *
 * A cache, not the truth: a scope not held here (never seen since the node opened the stream, or
 * evicted as least recently used) is looked up on the stream before the append is sent. Eviction is
 * therefore always safe; it only costs a round trip.
 */
export class ScopeHeads {
  private readonly delivered = new Map<string, number>();
  /** Own appends acknowledged but not delivered yet: the writer's pending state shows them. */
  private readonly acknowledged = new Map<string, number>();

  /**
   * The scope's last record as a decision that read every record below `readThrough` (and its own
   * appends) saw it; undefined when nobody here knows. A delivered record the decision had not read
   * yet is a conflict: nothing is sent.
   */
  lastSeen(scope: string, readThrough: number): number | undefined {
    const own = this.acknowledged.get(scope);
    const seen = this.delivered.get(scope);
    if (seen !== undefined && seen - 1 >= readThrough && (own === undefined || own < seen)) {
      throw new LogConflictError(seen - 1, `the last record of ${scope} is ${seen}`);
    }
    if (own !== undefined && (seen === undefined || own > seen)) return own;
    return seen;
  }

  /** The last record of `scope` the tail delivered (or a lookup found applied), if this node knows it. */
  lastDelivered(scope: string): number | undefined {
    return this.delivered.get(scope);
  }

  /** The tail delivered (and the read models applied) record `seq` of `scope`, or a lookup found it. */
  deliver(scope: string, seq: number): void {
    const own = this.acknowledged.get(scope);
    if (own !== undefined && own <= seq) this.acknowledged.delete(scope);
    const known = this.delivered.get(scope);
    if (known !== undefined) {
      if (known >= seq) return;
      this.delivered.delete(scope); // re-inserted at the back: most recently used
    } else if (this.delivered.size >= MAX_SCOPES) {
      this.delivered.delete(this.delivered.keys().next().value!);
    }
    this.delivered.set(scope, seq);
  }

  /** NATS stored this node's record `seq` of `scope` (the tail will deliver it later). */
  acknowledge(scope: string, seq: number): void {
    if ((this.delivered.get(scope) ?? 0) >= seq) return;
    if ((this.acknowledged.get(scope) ?? 0) < seq) this.acknowledged.set(scope, seq);
  }
}
