import { ServerResponse } from 'node:http';
import { sendBacklog } from '../../http/connections/send-deadline';

/**
 * The raw response of one event stream, with what a stream needs to know about its client: how many
 * bytes it was handed and has not taken yet (Node's buffer and the socket's), how long the oldest of
 * them has waited (the connection governor's send-deadline bookkeeping), and a way to wait until it
 * took what it has.
 */
export class SseSink {
  private lastWrite = Date.now();

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
   * Milliseconds the oldest byte written to this stream has waited for its client (0 while it keeps
   * up), as the send deadline measures it (src/http/connections/send-deadline.ts).
   */
  stalledMs(now: number): number {
    const socket = this.res.socket;
    return socket === null ? 0 : sendBacklog(socket, now).stalledMs;
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
