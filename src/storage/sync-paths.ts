import { open } from 'node:fs/promises';

/**
 * fsyncs of many files at once. One at a time, each fsync waits for its own journal commit (5,000
 * ring files: 3 to 15 s on this machine's disk); issued from the libuv pool side by side, the kernel
 * folds them into a few commits (measured: under 1 s). A bounded number in flight, so a directory of
 * thousands of files never holds thousands of descriptors open (EMFILE).
 */
const IN_FLIGHT = 16;

/** fsyncs every path (files or directories); a path that is gone needs no sync when `missingOk`. */
export async function syncPaths(paths: readonly string[], missingOk = false): Promise<void> {
  const queue = new SyncQueue(missingOk);
  for (const path of paths) queue.add(path);
  const failure = await queue.settled();
  if (failure !== undefined) throw failure;
}

/**
 * Paths fsynced in the background as they are added (a snapshot restore adds each file once it is
 * written, so the syncs overlap the download instead of following it); `settled` waits for all of
 * them and resolves to the first failure (undefined: every one succeeded).
 */
export class SyncQueue {
  private readonly waiting: string[] = [];
  private running = 0;
  private failure: unknown;
  private idle: (() => void) | undefined;

  constructor(private readonly missingOk = false) {}

  add(path: string): void {
    this.waiting.push(path);
    if (this.running < IN_FLIGHT) void this.work();
  }

  async settled(): Promise<unknown> {
    if (this.running > 0) await new Promise<void>((resolve) => (this.idle = resolve));
    return this.failure;
  }

  private async work(): Promise<void> {
    this.running++;
    for (let path = this.waiting.shift(); path !== undefined; path = this.waiting.shift()) {
      try {
        await syncPath(path, this.missingOk);
      } catch (error) {
        this.failure ??= error;
      }
    }
    if (--this.running > 0) return;
    this.idle?.();
    this.idle = undefined;
  }
}

async function syncPath(path: string, missingOk: boolean): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (missingOk && (error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
