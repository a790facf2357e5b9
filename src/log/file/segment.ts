import { join } from 'node:path';
import { OpenSegmentFile, SegmentFileHandle } from './segment-file';

export const SEGMENT_SUFFIX = '.log';
const SEGMENT_NAME = /^(\d{20})\.log$/;

/** `00000000000000000042.log`: the base offset (offset of the first record) as 20 zero-padded digits. */
export function segmentFileName(base: number): string {
  return `${String(base).padStart(20, '0')}${SEGMENT_SUFFIX}`;
}

/** The base offset a segment file name encodes, or undefined for any other file name. */
export function parseSegmentFileName(name: string): number | undefined {
  const match = SEGMENT_NAME.exec(name);
  if (!match) return undefined;
  const base = Number(match[1]);
  return Number.isSafeInteger(base) ? base : undefined;
}

/** Where a segment lives; all a reader needs. */
export interface SegmentRef {
  readonly base: number;
  readonly name: string;
  readonly path: string;
}

export function segmentRef(dir: string, base: number): SegmentRef {
  const name = segmentFileName(base);
  return { base, name, path: join(dir, name) };
}

/**
 * The segment the log appends to. It owns one read-write descriptor and knows its size and record
 * count as written (not necessarily synced: syncing is the caller's policy).
 *
 * Invariants: bytes [0, size) of the file are whole valid frames holding `records` records; writes only
 * ever extend the file at `size`. If a write fails, `size` is no longer trustworthy and the owner must
 * stop using the segment (the log poisons itself). Not safe for concurrent `append` calls: the owner
 * serialises them.
 */
export class Segment implements SegmentRef {
  readonly name: string;
  readonly path: string;
  private closed = false;

  private constructor(
    readonly base: number,
    dir: string,
    private readonly handle: SegmentFileHandle,
    private bytes: number,
    private count: number,
  ) {
    const ref = segmentRef(dir, base);
    this.name = ref.name;
    this.path = ref.path;
  }

  /** Creates a new, empty segment file; fails if one with that base already exists. */
  static async create(dir: string, base: number, openFile: OpenSegmentFile): Promise<Segment> {
    const handle = await openFile(segmentRef(dir, base).path, 'wx');
    return new Segment(base, dir, handle, 0, 0);
  }

  /**
   * Wraps an already opened, already recovered segment file whose first `bytes` bytes hold `records`
   * valid frames and nothing follows them.
   */
  static adopt(args: {
    dir: string;
    base: number;
    handle: SegmentFileHandle;
    bytes: number;
    records: number;
  }): Segment {
    return new Segment(args.base, args.dir, args.handle, args.bytes, args.records);
  }

  get size(): number {
    return this.bytes;
  }

  get records(): number {
    return this.count;
  }

  /** Offset the next record written to this segment will have. */
  get next(): number {
    return this.base + this.count;
  }

  /** Writes whole frames at the end of the file with as few write calls as the OS allows. */
  async append(frames: readonly Buffer[], records: number): Promise<void> {
    const data = frames.length === 1 ? frames[0] : Buffer.concat(frames);
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await this.handle.write(
        data,
        written,
        data.length - written,
        this.bytes + written,
      );
      if (bytesWritten <= 0) throw new Error(`write to ${this.name} made no progress`);
      written += bytesWritten;
    }
    this.bytes += data.length;
    this.count += records;
  }

  /** fdatasync of everything written so far. */
  async sync(): Promise<void> {
    await this.handle.datasync();
  }

  /** Idempotent; a failed close still counts as closed (the descriptor state is unknown). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}
