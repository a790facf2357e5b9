import { JetStreamClient } from '@nats-io/jetstream';
import { readStream, StreamRecord } from '../stream-reader';
import { SubjectLayout } from '../subjects';
import { chunkName } from './archive-chunk';
import { chunkAt } from './archive-reach';
import { ArchiveGapError } from './archive-gap.error';
import { StreamArchive } from './stream-archive';

export interface HistoryRequest {
  readonly js: JetStreamClient;
  readonly stream: string;
  /** The stream's archive, or null when it has none. */
  readonly archive: StreamArchive | null;
  readonly from: number;
  /** Exclusive: the stream's last record + 1 when the read began. */
  readonly until: number;
}

/**
 * The records [from, until) of a stream's whole history: from archive chunks as far as they reach,
 * then from the stream, in offset order with no offset skipped. Throws ArchiveGapError naming the
 * offsets (and the chunk that should hold them) when neither holds a record, ArchiveDamagedError
 * naming a chunk that fails its digests: a reader never folds around missing history.
 */
export async function* readHistory(request: HistoryRequest): AsyncGenerator<StreamRecord> {
  const { archive, until } = request;
  const layout = new SubjectLayout(request.stream);
  const entries = archive === null ? [] : await archive.entries();
  let at = request.from;
  for (let entry = chunkAt(entries, at); archive && entry && at < until; entry = chunkAt(entries, at)) {
    for (const record of await archive.read(entry)) {
      // A chunk stores the subject, not the scope: derived as the stream's own records derive it.
      if (record.offset >= at && record.offset < until)
        yield { ...record, scope: layout.scopeOf(record.subject) };
    }
    at = entry.next;
  }
  if (at >= until) return;
  const later = entries.find((e) => e.first > at);
  if (archive && later) {
    throw new ArchiveGapError(
      at,
      later.first,
      `archive chunk ${chunkName(at, later.first)} is missing from ${archive.where}`,
    );
  }
  for await (const record of readStream(request.js, layout, at, until)) {
    if (record.offset !== at) throw new ArchiveGapError(at, record.offset, missing(at, archive));
    yield record;
    at++;
  }
  if (at < until) throw new ArchiveGapError(at, until, 'the stream ends before them');
}

/** Why the archive does not hold `at` (it holds nothing from there on): none, or it ends there. */
function missing(at: number, archive: StreamArchive | null): string {
  if (archive === null) return 'they were purged and the stream has no archive (CHAT_NATS_ARCHIVE)';
  return (
    `${archive.where} ends at offset ${at}: purged unarchived (before the archive was on, or the stream ` +
    'was lost and restarted after a snapshot), or purged while this read'
  );
}
