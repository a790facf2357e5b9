/**
 * The stream's first sequence as this node last saw it (stream info at open and every verification,
 * its own purges, a refresh before a write against a purged scope). Only raised: purges only raise
 * it, and a value once seen is one the stream really had — what a write against "no record" may carry
 * (docs/scaling.md, "Writing to a scope whose records were purged"). A stream rewound below it is the
 * guard's to find (StreamGuard), not this cache's.
 */
export class StreamFloor {
  private seq = 1;

  get known(): number {
    return this.seq;
  }

  /** The stream answered with `firstSeq` as its first sequence (0 while it never held a record). */
  saw(firstSeq: number): number {
    if (firstSeq > this.seq) this.seq = firstSeq;
    return this.seq;
  }
}
