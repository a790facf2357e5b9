import { EventLog } from '../log/event-log';
import { UsageError } from './cli-args';

/**
 * Refuses a replay cut (`--until <offset>`, exclusive) that falls inside a batch: the records of one
 * append (a room's creation, its /r/events line, its first message) are stored together or not at
 * all, and a directory holding only part of one is a state the service never wrote (issue 24 item 3).
 * Names the nearest boundaries on both sides. Reads the source from `from` to the first boundary at
 * or after `until`, before anything is written, so a refused replay leaves the target untouched.
 * Logs without batch marks (written before FORMAT.md's Batches) read as one record per batch.
 */
export async function checkBatchBoundary(source: EventLog, from: number, until: number): Promise<void> {
  if (until <= from || until >= source.committedHead()) return;
  let before = from; // the last boundary at or below `until` seen so far
  for await (const record of source.read(from)) {
    const boundary = record.offset + 1;
    if (record.offset < until) {
      if (!record.continues) before = boundary;
      if (boundary === until && !record.continues) return;
      continue;
    }
    if (record.continues) continue;
    throw new UsageError(
      `--until ${until} falls inside a batch (offsets ${before}..${record.offset} were appended together and ` +
        `are stored all or none): cut at ${before} or ${boundary}`,
    );
  }
}
