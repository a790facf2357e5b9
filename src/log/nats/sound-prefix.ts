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
    if (record.expected !== undefined && before !== undefined && before !== record.expected) {
      guard.unsound(scope, record.offset + 1, record.expected, before);
      return records.slice(0, i);
    }
    last.set(scope, record.offset + 1);
  }
  return records;
}
