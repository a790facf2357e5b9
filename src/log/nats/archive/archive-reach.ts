import { ChunkEntry } from './archive-chunk';

/** The chunk holding `offset` (one starting there first), or undefined. Entries sorted by first. */
export function chunkAt(entries: readonly ChunkEntry[], offset: number): ChunkEntry | undefined {
  return entries.find((e) => e.first === offset) ?? entries.find((e) => e.first < offset && offset < e.next);
}

/** Where the archive's contiguous chunks from `offset` end (`offset` itself when none holds it). */
export function archivedFrom(entries: readonly ChunkEntry[], offset: number): number {
  let at = offset;
  for (let entry = chunkAt(entries, at); entry !== undefined; entry = chunkAt(entries, at)) at = entry.next;
  return at;
}
