import { LogSink } from './log-sink';
import { QueuedAppend } from './group-commit';
import { Segment, SegmentRef, segmentRef } from './segment';
import { ensureDirectory, listSegmentBases, removeSegmentFile, syncDirectory } from './segment-directory';
import { OpenSegmentFile } from './segment-file';
import { recoverNewestSegment } from './segment-recovery';

export interface SegmentChainOptions {
  readonly segmentBytes: number;
  readonly openFile: OpenSegmentFile;
  readonly logger: LogSink;
  /** Scan without cutting a torn tail and never write (see SegmentedEventLogOptions.readOnly). */
  readonly readOnly?: boolean;
  /** Base of the first segment of an empty directory. */
  readonly initialOffset?: number;
}

/** I/O counters since open. */
export interface ChainCounters {
  batches: number;
  fsyncs: number;
  bytes: number;
}

/**
 * The files of one log directory: sealed segments (oldest first) and the active segment, which holds
 * the only writable descriptor. It knows nothing of commits or subscribers; the log decides when to
 * write and sync. Its methods must not overlap: the GroupCommitter runs one I/O step at a time.
 *
 * Invariants: bases ascend and each segment holds [base_i, base_{i+1}); every sealed segment was
 * fdatasync'ed before its successor was created; the active segment is never deleted.
 */
export class SegmentChain {
  private sealed: SegmentRef[];
  readonly counters: ChainCounters = { batches: 0, fsyncs: 0, bytes: 0 };

  private constructor(
    private readonly dir: string,
    sealed: SegmentRef[],
    private active: Segment,
    private readonly options: SegmentChainOptions,
  ) {
    this.sealed = sealed;
  }

  /** Creates the directory and a first segment, or recovers the newest segment of an existing log. */
  static async open(dir: string, options: SegmentChainOptions): Promise<SegmentChain> {
    if (!options.readOnly) await ensureDirectory(dir);
    const bases = await listSegmentBases(dir);
    if (bases.length === 0) {
      if (options.readOnly) throw new Error(`no event log segments in ${dir}`);
      const first = await Segment.create(dir, options.initialOffset ?? 0, options.openFile);
      await syncDirectory(dir);
      return new SegmentChain(dir, [], first, options);
    }
    const newest = segmentRef(dir, bases[bases.length - 1]);
    const sealed = bases.slice(0, -1).map((base) => segmentRef(dir, base));
    const active = await recoverNewestSegment({
      ...newest,
      dir,
      openFile: options.openFile,
      logger: options.logger,
      readOnly: options.readOnly ?? false,
    });
    return new SegmentChain(dir, sealed, active, options);
  }

  /** Offset the next written record gets (written, not necessarily committed). */
  get next(): number {
    return this.active.next;
  }

  get firstOffset(): number {
    return this.sealed[0]?.base ?? this.active.base;
  }

  get segmentCount(): number {
    return this.sealed.length + 1;
  }

  /** The current segment list, for a reader. Sealed refs never change; the active ref stays valid. */
  snapshot(): SegmentRef[] {
    return [...this.sealed, this.active];
  }

  /** Writes a batch, rolling first whenever the next append would take a non-empty segment past the limit. */
  async write(batch: readonly QueuedAppend[]): Promise<void> {
    let frames: Buffer[] = [];
    let records = 0;
    let bytes = 0;
    for (const entry of batch) {
      const size = this.active.size + bytes;
      if (size > 0 && size + entry.bytes > this.options.segmentBytes) {
        await this.writeFrames(frames, records, bytes);
        [frames, records, bytes] = [[], 0, 0];
        await this.roll();
      }
      for (const frame of entry.frames) frames.push(frame);
      records += entry.frames.length;
      bytes += entry.bytes;
    }
    await this.writeFrames(frames, records, bytes);
  }

  /** fdatasync of the active segment (sealed ones are already synced). */
  async sync(): Promise<void> {
    await this.active.sync();
    this.counters.fsyncs += 1;
  }

  /**
   * Deletes, oldest first, every sealed segment whose records all lie before `offset`; returns how many.
   * Oldest first plus a directory fsync after each deletion: a crash part-way leaves a shorter log,
   * never a gap.
   */
  async removeBefore(offset: number): Promise<number> {
    const endOf = (i: number): number =>
      i + 1 < this.sealed.length ? this.sealed[i + 1].base : this.active.base;
    let count = 0;
    while (count < this.sealed.length && endOf(count) <= offset) count += 1;
    const doomed = this.sealed.splice(0, count);
    for (const segment of doomed) await removeSegmentFile(this.dir, segment.path);
    return count;
  }

  /** Closes the active segment's descriptor (no sync: the caller decides). */
  async close(): Promise<void> {
    await this.active.close();
  }

  private async writeFrames(frames: Buffer[], records: number, bytes: number): Promise<void> {
    if (frames.length === 0) return;
    await this.active.append(frames, records);
    this.counters.batches += 1;
    this.counters.bytes += bytes;
  }

  /**
   * Seals the active segment and starts the next one. Order matters for recovery: the sealed segment is
   * fdatasync'ed before its successor exists, and the directory is fsync'ed before anything is written to
   * the successor (an fdatasync of a file does not make its directory entry durable).
   */
  private async roll(): Promise<void> {
    const sealing = this.active;
    await this.sync();
    await sealing.close();
    const successor = await Segment.create(this.dir, sealing.next, this.options.openFile);
    this.sealed.push(segmentRef(this.dir, sealing.base));
    this.active = successor;
    await syncDirectory(this.dir);
    this.options.logger.log(
      `sealed ${sealing.name} (${sealing.records} records), now writing ${successor.name}`,
    );
  }
}
