import { LogRecord } from '../event-log';
import { LogCorruptedError } from '../log.errors';
import { SegmentRef } from './segment';
import { OpenSegmentFile } from './segment-file';
import { scanSegment } from './segment-scan';

/**
 * Streams records [from, until) out of a snapshot of the segment list (ascending bases), opening each
 * segment with its own read-only descriptor and reading it in chunks.
 *
 * Every record below `until` was committed when the snapshot was taken, so it is whole on disk: any
 * damage or early end met before `until` is corruption in the retained log and throws
 * LogCorruptedError. Records are never skipped. Segment i is trusted to hold offsets
 * [base_i, base_{i+1}); a segment that ends early is reported, not papered over.
 *
 * A segment removed by retention after the snapshot surfaces as the ENOENT of its open.
 */
export async function* readSegments(args: {
  segments: readonly SegmentRef[];
  from: number;
  until: number;
  openFile: OpenSegmentFile;
}): AsyncGenerator<LogRecord, void, undefined> {
  const { segments, from, until } = args;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const end = Math.min(until, i + 1 < segments.length ? segments[i + 1].base : until);
    if (end <= from || segment.base >= end) continue;
    yield* readOne({ segment, from, end, openFile: args.openFile });
  }
}

async function* readOne(args: {
  segment: SegmentRef;
  from: number;
  end: number;
  openFile: OpenSegmentFile;
}): AsyncGenerator<LogRecord, void, undefined> {
  const { segment, from, end } = args;
  const handle = await args.openFile(segment.path, 'r');
  try {
    let offset = segment.base;
    for await (const item of scanSegment(handle)) {
      if (item.kind === 'record') {
        // Copy: the scan buffer is large and shared; a kept record must not pin it.
        if (offset >= from) yield { offset, payload: Buffer.from(item.payload), continues: item.continues };
        offset += 1;
        if (offset >= end) return;
      } else if (item.kind === 'damaged') {
        throw new LogCorruptedError(segment.name, item.position, `${item.reason}, at offset ${offset}`);
      } else {
        const reason = `segment ends at offset ${offset} but records up to ${end} were expected`;
        throw new LogCorruptedError(segment.name, item.position, reason);
      }
    }
  } finally {
    await handle.close();
  }
}
