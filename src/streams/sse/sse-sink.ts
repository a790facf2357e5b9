import { ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { sendBacklog } from '../../http/connections/send-deadline';

/**
 * The raw response of one event stream, with what a stream needs to know about its client: how many
 * bytes it was handed and has not taken yet (Node's buffer and the socket's), how long the oldest of
 * them has waited (the connection governor's send-deadline bookkeeping), and a way to wait until it
 * took what it has.
 */
export class SseSink {
  private lastWrite = Date.now();
  /** The socket writeAll corked until the next tick (`end` uncorks it first), or null. */
  private corked: Socket | null = null;

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

  /**
   * Several frames (and whatever else this stream writes in this tick) as one socket write. The socket
   * is corked, not the response: since Node 21 (nodejs/node#50167) a corked chunked response holds
   * its writes and joins them into one chunk at uncork, and two things we rely on break with it (both
   * in v24 lib/_http_outgoing.js, absent from v20): `end()` sends the terminating `0` chunk before it
   * uncorks, so the held frames and the final `closed` event follow the end of the body and are lost;
   * and a write refused for the held length sets the response's need-drain while the socket, given
   * the joined chunk later, may take it without ever needing a drain, so 'drain' never comes and a
   * catching-up stream waits for ever. A corked socket keeps each write's own chunk framing, in order,
   * and its write results are the socket's, as Node 20's response cork (which corked the socket) did.
   */
  writeAll(chunks: ReadonlyArray<Buffer | string>): void {
    if (chunks.length === 0) return;
    if (chunks.length === 1) return this.write(chunks[0]);
    const socket = this.res.socket;
    if (this.corked === null && socket !== null) {
      this.corked = socket;
      socket.cork();
      process.nextTick(() => this.uncork());
    }
    for (const chunk of chunks) this.res.write(chunk);
    this.lastWrite = Date.now();
  }

  /** Flushes what writeAll corked (the response may have let go of the socket by then: it is kept). */
  private uncork(): void {
    const socket = this.corked;
    if (socket === null) return;
    this.corked = null;
    socket.uncork();
  }

  /**
   * Resolves true once the response takes writes again, false if the connection ends first. 'drain'
   * comes only after a write the response refused (past its socket's highWaterMark: 16 KiB on Node 20,
   * 64 KiB since Node 22, nodejs/node#52037); bytes buffered below that are flushed without one, so
   * waiting for it then would wait for ever.
   */
  drained(): Promise<boolean> {
    if (!this.open) return Promise.resolve(false);
    if (this.buffered === 0 || !this.res.writableNeedDrain) return Promise.resolve(true);
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
    // Uncorked here, not after: once ended, the socket may serve the connection's next request.
    this.uncork();
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
