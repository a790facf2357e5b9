import { ServerResponse } from 'node:http';

/**
 * The raw response of one event stream, with what a stream needs to know about its client: how many
 * bytes it was handed and has not taken yet (Node's buffer and the socket's), whether it made progress
 * since the last look, and a way to wait until it took what it has.
 */
export class SseSink {
  private lastWrite = Date.now();
  private progressMark = -1;

  constructor(private readonly res: ServerResponse) {}

  /** Bytes written to this response that the kernel has not accepted yet. */
  get buffered(): number {
    return this.res.writableLength;
  }

  get open(): boolean {
    return !this.res.destroyed && !this.res.writableEnded;
  }

  /** Milliseconds since anything was written (the heartbeat writes a comment after a quiet period). */
  idleMs(now: number): number {
    return now - this.lastWrite;
  }

  write(chunk: Buffer | string): void {
    this.lastWrite = Date.now();
    this.res.write(chunk);
  }

  /** Several frames as one socket write. */
  writeAll(chunks: ReadonlyArray<Buffer | string>): void {
    if (chunks.length === 0) return;
    if (chunks.length === 1) return this.write(chunks[0]);
    this.res.cork();
    for (const chunk of chunks) this.res.write(chunk);
    this.lastWrite = Date.now();
    process.nextTick(() => this.res.uncork());
  }

  /** Resolves true once the client took what was buffered, false if the connection ends first. */
  drained(): Promise<boolean> {
    if (!this.open) return Promise.resolve(false);
    if (this.buffered === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => () => {
        this.res.off('drain', onDrain);
        this.res.off('close', onClose);
        resolve(ok);
      };
      const onDrain = done(true);
      const onClose = done(false);
      this.res.once('drain', onDrain);
      this.res.once('close', onClose);
    });
  }

  /**
   * Whether the client took nothing since the previous call while bytes waited for it (the socket's
   * count of bytes handed to the kernel did not move): called once per heartbeat tick.
   */
  stalledSinceLastLook(): boolean {
    const socket = this.res.socket;
    // bytesWritten counts what the socket still buffers too: what the kernel took is the difference.
    const taken = socket === null ? 0 : socket.bytesWritten - socket.writableLength;
    const stalled = this.buffered > 0 && taken === this.progressMark;
    this.progressMark = taken;
    return stalled;
  }

  /** Ends the response after `last`; a client that never takes it is cut after `graceMs`. */
  end(last: string | null, graceMs: number): void {
    if (!this.open) return;
    this.res.end(last ?? undefined);
    const timer = setTimeout(() => this.res.destroy(), graceMs);
    timer.unref();
    this.res.once('close', () => clearTimeout(timer));
  }

  destroy(): void {
    this.res.destroy();
  }

  onGone(listener: () => void): void {
    this.res.once('close', listener);
  }
}
