import { LogRecord } from '../event-log';
import { LogUnavailableError } from '../log.errors';
import { ScopeHeads } from './scope-heads';
import { StreamGuard } from './stream-guard';
import { TailRecord } from './stream-tail';
import { SubjectLayout } from './subjects';

/**
 * The delivered records up to the first whose stored precondition did not hold where the stream put
 * it — its scope's last record before it is not the one its writer decided against (checked when this
 * node knows that record). At that one the guard declares a fork (StreamGuard.unsound), and nothing
 * from it on is applied: every node sees the same records and headers, so every node that checks
 * stops at the same record, and none folds two writes decided against one state.
 */
export function soundPrefix(
  records: readonly TailRecord[],
  layout: SubjectLayout,
  heads: ScopeHeads,
  guard: StreamGuard,
): readonly TailRecord[] {
  const last = new Map<string, number>();
  for (const [i, record] of records.entries()) {
    const scope = layout.scopeOf(record.subject);
    if (scope === undefined) continue;
    const before = last.get(scope) ?? heads.lastDelivered(scope);
    if (record.expected !== undefined && before !== undefined && !held(record, before)) {
      guard.unsound(scope, record.offset + 1, record.expected, before, record.floor);
      return records.slice(0, i);
    }
    last.set(scope, record.offset + 1);
  }
  return records;
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
 * hold where the stream put it (checked against the scope's records read before it) ends the read
 * with the fork, so a node replaying the stream folds exactly what running nodes fold; a hole in the
 * offsets (records purged while this node read them) ends it too, never folded around.
 */
export async function* soundRead(
  records: AsyncIterable<TailRecord>,
  start: number,
  context: { readonly stream: string; readonly layout: SubjectLayout; readonly guard: StreamGuard },
): AsyncGenerator<LogRecord> {
  const { stream, layout, guard } = context;
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
    if (soundPrefix([record], layout, seen, guard).length === 0) throw guard.fork!;
    const scope = layout.scopeOf(record.subject);
    if (scope !== undefined) seen.deliver(scope, record.offset + 1);
    yield record;
  }
}
