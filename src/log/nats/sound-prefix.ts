import { AppliedScopeHeads, LogRecord } from '../event-log';
import { LogUnavailableError } from '../log.errors';
import { ScopeHeads } from './scope-heads';
import { StreamGuard } from './stream-guard';
import { TailRecord } from './stream-tail';

/**
 * The delivered records up to the first whose stored precondition did not hold where the stream put
 * it — its scope's last record before it is not the one its writer decided against (checked when this
 * node knows that record). At that one the guard declares a fork (StreamGuard.unsound), and nothing
 * from it on is applied: every node sees the same records and headers, so every node that checks
 * stops at the same record, and none folds two writes decided against one state.
 *
 * A scope's record before the batch is read from the runner's heads (`applied`) when they end exactly
 * where the batch starts: restored from the checkpoint or snapshot the node started from and folded
 * with everything applied since, they know each scope a full replay knows. Otherwise (the runner is
 * still replaying at start-up: it reads these records again through soundRead, which checks them
 * against its heads) from this node's cache of delivered heads.
 */
export function soundPrefix(
  records: readonly TailRecord[],
  heads: ScopeHeads,
  guard: StreamGuard,
  applied?: AppliedScopeHeads,
): readonly TailRecord[] {
  const last = new Map<string, number>();
  const aligned = applied !== undefined && applied.next === records[0]?.offset ? applied : undefined;
  for (const [i, record] of records.entries()) {
    const { scope } = record;
    if (scope === undefined) continue;
    const before = last.get(scope) ?? appliedSeq(aligned, scope) ?? heads.lastDelivered(scope);
    if (record.expected !== undefined && before !== undefined && !held(record, before)) {
      guard.unsound(scope, record.offset + 1, record.expected, before, record.floor);
      return records.slice(0, i);
    }
    last.set(scope, record.offset + 1);
  }
  return records;
}

/** The stream sequence of the scope's last record in the runner's heads, if they know one. */
function appliedSeq(applied: AppliedScopeHeads | undefined, scope: string): number | undefined {
  const offset = applied?.lastOffset(scope);
  return offset === undefined ? undefined : offset + 1;
}

/**
 * Whether `record`'s stored precondition held, given `before`, the scope's last record before it.
 * "No record" (expected 0) carrying the stream's first sequence its writer saw (`floor`, written
 * since purging: docs/scaling.md, "Writing to a scope whose records were purged") holds when `before`
 * lies below that floor — it was purged, and NATS, which took "no record", had refused any later one.
 * The floor is one the stream had, so `before` below it really was gone; a stale floor is lower, which
 * only makes this stricter. Any other precondition (and "no record" on older records, without a
 * floor) holds only when it names `before` itself.
 */
export function held(record: Pick<TailRecord, 'expected' | 'floor'>, before: number): boolean {
  if (record.expected === 0 && record.floor !== undefined) return before < record.floor;
  return before === record.expected;
}

/**
 * A read (the start-up replay) held to the tail's rule: a record whose stored precondition did not
 * hold where the stream put it (checked against the scope's records read before it, and before the
 * read against the runner's heads while they end exactly at the record: the runner applies each
 * record before asking for the next) ends the read with the fork, so a node replaying the stream, from
 * its start or from a checkpoint, folds exactly what running nodes fold; a hole in the offsets
 * (records purged while this node read them) ends it too, never folded around.
 */
export async function* soundRead(
  records: AsyncIterable<TailRecord>,
  start: number,
  context: { readonly stream: string; readonly guard: StreamGuard; readonly applied?: AppliedScopeHeads },
): AsyncGenerator<LogRecord> {
  const { stream, guard, applied } = context;
  const seen = new ScopeHeads();
  let expected = start;
  for await (const record of records) {
    if (record.offset !== expected) {
      // Purged (retention `snapshot`) while this node read them: it must not fold around the hole.
      throw new LogUnavailableError(
        `offsets ${expected}..${record.offset - 1} were purged from stream ${stream} while this ` +
          'node read them: start it again, it restores a snapshot',
      );
    }
    expected++;
    if (soundPrefix([record], seen, guard, applied).length === 0) throw guard.fork!;
    if (record.scope !== undefined) seen.deliver(record.scope, record.offset + 1);
    yield record;
  }
}
