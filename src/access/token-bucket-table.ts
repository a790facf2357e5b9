import { Clock } from '../common/clock';

export interface BucketRule {
  /** Tokens a full bucket holds (the burst). */
  readonly capacity: number;
  /** Continuous refill, in tokens per second. */
  readonly perSecond: number;
}

/** The outcome of one take: granted or not, whole tokens left, and the wait for the next token. */
export interface Take {
  readonly granted: boolean;
  /** Whole tokens left after this take (the reference's `int(tokens)`). */
  readonly left: number;
  /** Seconds until one token is available; 0 when granted. */
  readonly waitSeconds: number;
}

interface Bucket {
  tokens: number;
  /** Seconds (clock time) of the last refill. */
  at: number;
}

/** How many of the idlest buckets one take looks at to forget the ones that are full again. */
const SWEEP_PER_TAKE = 2;

/**
 * Token buckets keyed by client, one rule for all (contract §13.1): continuous refill, a request
 * costs one token and is granted when at least one is there.
 *
 * Invariant: at most `maxBuckets` entries. The Map is kept in least-recently-touched order; a bucket
 * that has refilled to its capacity is identical to no bucket at all, so the idlest few are dropped
 * as they fill up again, and past the cap the idlest is dropped regardless (that client merely gets a
 * fresh, full bucket — the cheaper failure). Memory depends on the cap, never on how many clients
 * ever called.
 */
export class TokenBucketTable {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly rule: BucketRule,
    private readonly maxBuckets: number,
    private readonly clock: Clock,
  ) {}

  get size(): number {
    return this.buckets.size;
  }

  /**
   * Spends one token when at least `1 + reserve` are there: a reserve keeps the last tokens of the
   * bucket out of reach (the room-creation fair share shrinks a client's usable burst this way).
   */
  take(key: string, reserve = 0): Take {
    const now = this.nowSeconds();
    const bucket = this.refilled(key, now);
    const granted = bucket.tokens >= 1 + reserve;
    if (granted) bucket.tokens -= 1;
    this.touch(key, bucket, now);
    const waitSeconds = granted ? 0 : (1 + reserve - bucket.tokens) / this.rule.perSecond;
    return { granted, left: Math.floor(bucket.tokens), waitSeconds };
  }

  /** Hands one token back, capped at the capacity; the refill clock is left alone. */
  refund(key: string): void {
    const bucket = this.buckets.get(key);
    if (bucket !== undefined) bucket.tokens = Math.min(this.rule.capacity, bucket.tokens + 1);
  }

  private refilled(key: string, now: number): Bucket {
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return { tokens: this.rule.capacity, at: now };
    const elapsed = Math.max(0, now - bucket.at);
    return { tokens: Math.min(this.rule.capacity, bucket.tokens + elapsed * this.rule.perSecond), at: now };
  }

  private touch(key: string, bucket: Bucket, now: number): void {
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    let looked = 0;
    for (const [idleKey, idle] of this.buckets) {
      if (looked++ >= SWEEP_PER_TAKE || idleKey === key) break;
      if (idle.tokens + (now - idle.at) * this.rule.perSecond < this.rule.capacity) break;
      this.buckets.delete(idleKey);
    }
    while (this.buckets.size > this.maxBuckets)
      this.buckets.delete(this.buckets.keys().next().value as string);
  }

  private nowSeconds(): number {
    return this.clock.nowMicros() / 1e6;
  }
}
