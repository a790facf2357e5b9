import { ChatEvent } from '../events/chat-event';
import { AppliedScopeHeads, LogRecord } from '../log/event-log';
import { Projection } from './projection';

/**
 * What a checkpoint records as projection `scopeHeads` (docs/scaling.md, "A stream that took two
 * writes decided against one state"): every scope's last record below `offset`, as
 * `[scope id, offset of that record]` (nats: the stream sequence − 1). One array element per line in
 * the checkpoint file (checkpoint-format.ts), so thousands of scopes never make one giant line.
 */
export interface ScopeHeadsState {
  /** The checkpoint's offset: the heads cover exactly the records below it. */
  readonly offset: number;
  readonly heads: ReadonlyArray<readonly [string, number]>;
}

/**
 * The scope heads the projection runner folds from the records it applies, in the same step as the
 * read models (so `next` is always the runner's next offset), and that a shared log checks stored
 * preconditions against (AppliedScopeHeads). A Projection only so checkpoints save and restore it by
 * name, like the log chain: `apply` has nothing to do.
 *
 * Never a head at or past `next`: only applied records are folded, in offset order, and a checkpoint
 * captures `snapshot()` in the same synchronous step as its offset and every read model. A head later
 * than the offset would make a sound record look unsound (a false fork, which stops writes).
 * Unbounded on purpose: a scope quiet for years still has its last record checked; one entry per
 * room or note ever written, which the read models hold anyway.
 */
export class ScopeHeadsFold implements Projection, AppliedScopeHeads {
  readonly name = 'scopeHeads';
  private nextOffset = 0;
  private readonly heads = new Map<string, number>();

  get next(): number {
    return this.nextOffset;
  }

  get size(): number {
    return this.heads.size;
  }

  apply(_event: ChatEvent, _offset: number): void {}

  /** Folds the record the runner just applied (called in offset order, after the read models). */
  fold(record: LogRecord): void {
    if (record.scope !== undefined) this.heads.set(record.scope, record.offset);
    this.nextOffset = record.offset + 1;
  }

  lastOffset(scope: string): number | undefined {
    return this.heads.get(scope);
  }

  /** Replay starts at `offset` knowing no head (a checkpoint written before scope heads). */
  startAt(offset: number): void {
    this.heads.clear();
    this.nextOffset = offset;
  }

  snapshot(): ScopeHeadsState {
    return { offset: this.nextOffset, heads: [...this.heads] };
  }

  /**
   * A head at or past the state's offset cannot be written (see the class comment); one read anyway
   * is dropped rather than trusted, since trusting it could only ever declare a false fork.
   */
  restore(state: unknown): void {
    const { offset, heads } = state as ScopeHeadsState;
    this.heads.clear();
    for (const [scope, last] of heads) if (last < offset) this.heads.set(scope, last);
    this.nextOffset = offset;
  }
}
