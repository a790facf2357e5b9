/**
 * The history asked for is in neither the archive nor the stream: a chunk is missing (deleted, or the
 * stream was purged before the archive was on), or the stream was purged while it was read.
 */
export class ArchiveGapError extends Error {
  constructor(
    readonly from: number,
    readonly until: number,
    why: string,
  ) {
    super(`offsets ${from}..${until - 1} are in neither the archive nor the stream: ${why}`);
  }
}
