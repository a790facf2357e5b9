import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { RoomStream } from './room-stream';

/** How often every open stream is looked at (stall check, heartbeat when quiet). */
const TICK_MS = 1000;

/**
 * The open event streams of this process, and the one timer that looks after all of them: no timer
 * per stream (5,000 streams are 5,000 objects and one interval). The timer runs only while a stream
 * is open and never keeps the process alive.
 */
@Injectable()
export class StreamRegistry implements OnModuleDestroy {
  private readonly streams = new Set<RoomStream>();
  private timer: NodeJS.Timeout | undefined;

  add(stream: RoomStream): void {
    this.streams.add(stream);
    this.timer ??= setInterval(() => this.tick(), TICK_MS).unref();
  }

  delete(stream: RoomStream): void {
    this.streams.delete(stream);
    if (this.streams.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Streams open right now. */
  get size(): number {
    return this.streams.size;
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const now = Date.now();
    for (const stream of [...this.streams]) stream.tick(now);
  }
}
