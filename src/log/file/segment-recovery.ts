import { Segment } from './segment';
import { OpenSegmentFile } from './segment-file';
import { scanSegment } from './segment-scan';
import { LogSink } from './log-sink';

/**
 * Recovery of the newest segment at open. Only the newest segment can hold a torn tail: a segment is
 * fdatasync'ed before its successor is created (see SegmentedEventLog's roll), so every older segment
 * was complete and durable when the next one appeared. Older segments are therefore not scanned here;
 * damage in them is reported by `read` as LogCorruptedError.
 *
 * The rule: keep the longest prefix of valid frames, cut the file right after it, fdatasync the cut.
 * What is dropped is a write that was never acknowledged under the `always` policy (it was not covered
 * by a completed fdatasync), or, under `interval`/`none`, writes the policy allowed to be lost. Bit rot
 * in the middle of the newest segment is indistinguishable from a torn tail without a resync marker,
 * so it cuts everything after it too; the warning says how many bytes went.
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
    for await (const item of scanSegment(handle)) {
      if (item.kind === 'record') {
        records += 1;
        validBytes = item.position + item.frameBytes;
      } else if (item.kind === 'damaged') {
        damage = item.reason;
      }
    }
    if (validBytes < size && !args.readOnly) {
      args.logger.warn(
        `event log recovery: ${args.path} holds ${records} valid records in ${validBytes} bytes; ` +
          `dropping ${size - validBytes} trailing bytes (${damage})`,
      );
      await handle.truncate(validBytes);
      await handle.datasync();
    }
    return Segment.adopt({ dir: args.dir, base: args.base, handle, bytes: validBytes, records });
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
