import { open } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventLog, LogRecord } from '../../../src/log/event-log';
import { LogSink } from '../../../src/log/file/log-sink';
import { OpenSegmentFile, SegmentFileHandle } from '../../../src/log/file/segment-file';
import { segmentFileName } from '../../../src/log/file/segment';
import { SegmentedEventLog } from '../../../src/log/file/segmented-event-log';
import { SegmentedEventLogOptions } from '../../../src/log/file/segmented-event-log.options';

/** Keeps what the log reported, so tests can assert on recovery and failure messages. */
export class RecordingSink implements LogSink {
  readonly logs: string[] = [];
  readonly warnings: string[] = [];
  log(message: string): void {
    this.logs.push(message);
  }
  warn(message: string): void {
    this.warnings.push(message);
  }
}

/**
 * Real segment files with switchable faults: every operation goes to a real FileHandle unless its
 * switch is on, in which case it fails the way a dying disk does (EIO). The only honest way to make
 * fdatasync fail on demand when the tests run as root.
 */
export class FaultyFiles {
  failWrites = false;
  failDatasyncs = false;
  datasyncCalls = 0;

  readonly open: OpenSegmentFile = async (path, flags) => {
    const real = await open(path, flags, 0o644);
    const handle: SegmentFileHandle = {
      read: (buffer, offset, length, position) => real.read(buffer, offset, length, position),
      write: (buffer, offset, length, position) =>
        this.failWrites ? Promise.reject(eio('write')) : real.write(buffer, offset, length, position),
      datasync: () => {
        this.datasyncCalls += 1;
        return this.failDatasyncs ? Promise.reject(eio('fdatasync')) : real.datasync();
      },
      truncate: (length) => real.truncate(length),
      stat: () => real.stat(),
      close: () => real.close(),
    };
    return handle;
  };
}

function eio(syscall: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EIO: i/o error, ${syscall}`), { code: 'EIO', errno: -5, syscall });
}

export async function openLog(
  dir: string,
  options: Omit<SegmentedEventLogOptions, 'dir'> = {},
): Promise<{ log: SegmentedEventLog; sink: RecordingSink }> {
  const sink = new RecordingSink();
  const log = new SegmentedEventLog({ logger: sink, ...options, dir });
  await log.open();
  return { log, sink };
}

export async function readAll(log: EventLog, from = 0): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  for await (const record of log.read(from)) records.push(record);
  return records;
}

export const texts = (records: readonly LogRecord[]): string[] =>
  records.map((r) => r.payload.toString('utf8'));

export const payloads = (...values: string[]): Buffer[] => values.map((v) => Buffer.from(v, 'utf8'));

/** Segment file names in `dir`, ascending. */
export const segmentFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.log'))
    .sort();

export const segmentPath = (dir: string, base: number): string => join(dir, segmentFileName(base));
