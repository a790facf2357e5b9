import { readStream } from '../stream-reader';
import { SubjectLayout } from '../subjects';
import { encodeRecord, sealChunk } from './archive-chunk';
import { archivedFrom } from './archive-reach';
import { StreamArchive } from './stream-archive';

export interface ArchiveRequest {
  readonly stream: string;
  /** The stream's first record (log offset): nothing below it can be archived any more. */
  readonly first: number;
  /** The purge wants to remove the records below this offset. */
  readonly below: number;
  /** CHAT_NATS_ARCHIVE_CHUNK_BYTES: a chunk ends after the record that brings it to this many bytes. */
  readonly chunkBytes: number;
}

/**
 * Copies the stream's records from where the archive ends up to `below` into whole chunks (FORMAT.md)
 * and returns the offset below which every record is archived now (≤ `below`): what the purge may
 * remove. Records past the last whole chunk stay unarchived, and in the stream, until a later purge.
 * Throws when a chunk cannot be stored: the caller then purges nothing.
 */
export async function archiveBelow(archive: StreamArchive, request: ArchiveRequest): Promise<number> {
  const start = archivedFrom(await archive.entries(), request.first);
  if (start >= request.below) return request.below;
  let chunkFirst = start;
  let encoded: Buffer[] = [];
  let bytes = 0;
  for await (const record of readStream(
    archive.js,
    new SubjectLayout(request.stream),
    start,
    request.below,
  )) {
    // Another node purged past here meanwhile (having archived them first, when its archive is on):
    // what this node archived so far is all its own purge may remove, and the stream is past it.
    if (record.offset !== chunkFirst + encoded.length) break;
    const one = encodeRecord(record);
    encoded.push(one);
    bytes += one.length;
    if (bytes < request.chunkBytes) continue;
    await archive.store(sealChunk(chunkFirst, encoded));
    chunkFirst += encoded.length;
    encoded = [];
    bytes = 0;
  }
  return chunkFirst;
}
