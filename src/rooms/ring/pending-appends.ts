/** Bytes appended to one ring file and not written yet: a contiguous run starting at `position`. */
export interface PendingRun {
  readonly position: number;
  readonly chunks: Buffer[];
  bytes: number;
}

/**
 * Ring-file appends held in memory until they are written together (RingFileStore). With a thousand
 * rooms each taking a few writes a second, one pwrite per message was ~9 % of a durable write's CPU
 * (--cpu-prof); held for a moment, a room's messages go to disk in one writev.
 */
export class PendingAppends {
  private readonly runs = new Map<string, PendingRun>();
  private total = 0;

  /** Bytes held across every file. */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.runs.size;
  }

  files(): string[] {
    return [...this.runs.keys()];
  }

  get(file: string): PendingRun | undefined {
    return this.runs.get(file);
  }

  /**
   * Holds `data` for byte `position` of `file`. Returns false, holding nothing, when it does not
   * continue the file's held run (the caller writes that run first, then adds again).
   */
  add(file: string, position: number, data: Buffer): boolean {
    const run = this.runs.get(file);
    if (run === undefined) {
      this.runs.set(file, { position, chunks: [data], bytes: data.length });
    } else {
      if (run.position + run.bytes !== position) return false;
      run.chunks.push(data);
      run.bytes += data.length;
    }
    this.total += data.length;
    return true;
  }

  /** Forgets the file's held run (written, or the file is going away). */
  drop(file: string): void {
    const run = this.runs.get(file);
    if (run === undefined) return;
    this.runs.delete(file);
    this.total -= run.bytes;
  }

  /** The held bytes of `file` that fall in [start, end), and where they begin. */
  slice(file: string, start: number, end: number): { readonly from: number; readonly data: Buffer } | null {
    const run = this.runs.get(file);
    if (run === undefined || end <= run.position) return null;
    const from = Math.max(start, run.position);
    const all = run.chunks.length === 1 ? run.chunks[0] : Buffer.concat(run.chunks, run.bytes);
    return {
      from,
      data: all.subarray(from - run.position, Math.min(end, run.position + run.bytes) - run.position),
    };
  }
}
