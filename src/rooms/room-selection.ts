import { StoredRecord } from './read-side/stored-record';
import { RecordDeque } from './ring/record-deque';

export interface Selection {
  /** Only records with a greater seq; null = no cursor. */
  readonly since: bigint | null;
  readonly limit: number;
  /** e- rooms: records older than this (ms since the epoch) are expired; null for other rooms. */
  readonly expiredBeforeMs: number | null;
}

/**
 * Contract §7.2: scan back from the newest record, collecting records with seq > since until `limit`
 * are found, a record with seq ≤ since is reached, or (e- rooms) an expired record is reached. The
 * result is the newest qualifying records, oldest first — a reader more than `limit` behind sees a gap.
 */
export function selectRecords(tail: RecordDeque | null, selection: Selection): StoredRecord[] {
  if (tail === null) return [];
  const picked: StoredRecord[] = [];
  const { since, limit, expiredBeforeMs } = selection;
  for (let i = tail.length - 1; i >= 0 && picked.length < limit; i--) {
    const record = tail.at(i);
    if (since !== null && BigInt(record.seq) <= since) break;
    if (expiredBeforeMs !== null && (record.tsMs === null || record.tsMs < expiredBeforeMs)) break;
    picked.push(record);
  }
  return picked.reverse();
}
