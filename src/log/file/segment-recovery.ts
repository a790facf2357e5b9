import { LogCorruptedError } from '../log.errors';
import { Segment } from './segment';
import { OpenSegmentFile } from './segment-file';
import { firstValidFrameAfter } from './segment-resync';
import { scanSegment } from './segment-scan';
import { LogSink } from './log-sink';

/**
 * Recovery of the newest segment at open. Only the newest segment can hold a torn tail: a segment is
 * fdatasync'ed before its successor is created (see SegmentedEventLog's roll), so every older segment
 * was complete and durable when the next one appeared. Older segments are therefore not scanned here;
 * damage in them is reported by `read` as LogCorruptedError.
 *
 * The rule (issue 24): a torn tail, damage with no valid frame anywhere after it, is a write that
 * never completed; it is cut with a warning, back to the end of the last whole batch (an append whose
 * last frame is missing was never acknowledged: FORMAT.md, Batches), and the cut is fdatasync'ed.
 * Damage followed by a valid frame is not a torn tail: the frames after it were written, and may have
 * been acknowledged, so nothing is cut and opening fails with LogCorruptedError naming the file, the
 * byte and the offset, the file left byte for byte as it was. `npm run salvage` is the way out.
 */
export async function recoverNewestSegment(args: {
  dir: string;
  base: number;
  path: string;
  openFile: OpenSegmentFile;
  logger: LogSink;
  /** Read-only: report the valid prefix but leave the file as it is (a live writer may own it). */
  readOnly?: boolean;
}): Promise<Segment> {
  const handle = await args.openFile(args.path, args.readOnly ? 'r' : 'r+');
  try {
    const { size } = await handle.stat();
    let records = 0;
    let validBytes = 0;
    let damage = '';
    // The end of the last whole batch: the frames of an append after it, without its last frame, are
    // an append that never completed (it is acknowledged only once all its frames are written).
    let batchRecords = 0;
    let batchBytes = 0;
    for await (const item of scanSegment(handle)) {
      if (item.kind === 'record') {
        records += 1;
        validBytes = item.position + item.frameBytes;
        if (!item.continues) [batchRecords, batchBytes] = [records, validBytes];
      } else if (item.kind === 'damaged') {
        damage = item.reason;
      }
    }
    if (batchBytes < validBytes && damage === '') {
      damage = `an append of ${records - batchRecords} records ends early`;
    }
    if (validBytes < size) {
      const resumes = await firstValidFrameAfter(handle, validBytes);
      if (resumes !== null) {
        throw new LogCorruptedError(
          args.path,
          validBytes,
          `the frame of offset ${args.base + records} fails its check (${damage}) and a valid frame follows at ` +
            `byte ${resumes}, so this is not a torn tail: records after the damage may have been acknowledged. ` +
            `Nothing was changed. Run \`npm run salvage -- <data dir>\` (--dry-run first) to keep every valid ` +
            'frame and move the damaged bytes aside, or restore the log from backup',
        );
      }
    }
    if (batchBytes < size && !args.readOnly) {
      args.logger.warn(
        `event log recovery: ${args.path} holds ${batchRecords} valid records in ${batchBytes} bytes; ` +
          `dropping ${size - batchBytes} trailing bytes (${damage})`,
      );
      await handle.truncate(batchBytes);
      await handle.datasync();
    }
    return Segment.adopt({
      dir: args.dir,
      base: args.base,
      handle,
      bytes: batchBytes,
      records: batchRecords,
    });
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
