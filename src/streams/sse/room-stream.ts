import { ChangeListener } from '../../projections/change-notifier';
import { Position } from '../cursor/room-cursors';
import { RoomStep, RoomSteps } from '../room-steps';
import {
  closedFrame,
  CloseReason,
  gapFrame,
  HEARTBEAT_FRAME,
  idLine,
  messageDataFrame,
  readyFrame,
  ReadyRoom,
  resetFrame,
  RETRY_FRAME,
  singleRoomMessageFrame,
} from './sse-frames';
import { SseSink } from './sse-sink';

export interface StreamLimits {
  /** Bytes the client may leave untaken before a live stream is closed as too slow. */
  readonly bufferBytes: number;
  readonly heartbeatSeconds: number;
  /**
   * A stream whose client took nothing for this long is ended with a `closed` event: half the send
   * deadline, so it ends in its own words before the connection governor resets the connection.
   */
  readonly stallMs: number;
}

/**
 * One event stream over one or more rooms: where its reader stands in each room, and the loop that
 * reads forward from there and writes events (RoomSteps: resets, gaps, every message still in the
 * ring). There is no per-stream queue: a change only marks its room to be read, and the reader's
 * position in the room is the only state, so memory per stream is a few hundred bytes plus what the
 * socket holds.
 *
 * Two phases. **Catching up** (from the cursor the client sent to the rooms' heads): writes are paced
 * by the client, the loop waits for the socket to drain, so a reader may resume from anywhere in a
 * 10 MiB ring without the server holding it in memory. **Live** (once it reached every head): a change
 * is written as soon as it is applied, without waiting; when the bytes the client has not taken would
 * pass the buffer bound, the stream is closed with a `closed` event (`slow_consumer`), and the client's
 * reconnect with Last-Event-ID catches up again, paced. Either phase ends a stream whose client took
 * nothing for `stallMs` (`stalled`).
 */
export class RoomStream implements ChangeListener {
  private readonly index = new Map<string, number>();
  private readonly entries: string[];
  private readonly dirty = new Set<number>();
  private pumping = false;
  private live = false;
  private ended = false;
  private readonly highWater: number;
  private readonly chunk: { readonly maxRecords: number; readonly maxBytes: number };

  constructor(
    private readonly sink: SseSink,
    private readonly steps: RoomSteps,
    private readonly positions: Position[],
    private readonly limits: StreamLimits,
    private readonly onEnd: () => void,
  ) {
    positions.forEach((p, i) => this.index.set(p.room, i));
    this.entries = positions.map(entryOf);
    this.highWater = Math.min(64 * 1024, limits.bufferBytes / 2);
    this.chunk = { maxRecords: 256, maxBytes: Math.max(4096, Math.floor(limits.bufferBytes / 4)) };
    sink.onGone(() => this.finish());
  }

  /** The rooms this stream reads (the change notifier subscribes it to them). */
  get rooms(): string[] {
    return this.positions.map((p) => p.room);
  }

  /** Sends the reconnect delay and the `ready` event, then catches up from every cursor. */
  start(ready: readonly ReadyRoom[]): void {
    this.sink.writeAll([RETRY_FRAME, readyFrame(this.cursor(), ready, this.limits.heartbeatSeconds)]);
    this.positions.forEach((_, i) => this.dirty.add(i));
    this.schedule();
  }

  onChange(room: string): void {
    const i = this.index.get(room);
    if (i === undefined || this.ended) return;
    this.dirty.add(i);
    this.schedule();
  }

  onClose(): void {
    this.close('shutdown');
  }

  /** Called about once a second: a comment on a stream quiet for a heartbeat; the end of a stalled one. */
  tick(now: number): void {
    if (this.ended) return;
    if (this.sink.stalledMs(now) >= this.limits.stallMs) return this.close('stalled');
    if (this.sink.idleMs(now) >= this.limits.heartbeatSeconds * 1000 - 500) this.sink.write(HEARTBEAT_FRAME);
  }

  close(reason: CloseReason): void {
    if (this.ended) return;
    this.sink.end(closedFrame(reason), reason === 'shutdown' ? 1000 : this.limits.stallMs);
    this.finish();
  }

  private schedule(): void {
    if (this.pumping || this.ended) return;
    this.pumping = true;
    queueMicrotask(() => void this.pump());
  }

  private async pump(): Promise<void> {
    try {
      while (!this.ended && this.dirty.size > 0) {
        for (const i of [...this.dirty]) {
          const step = this.steps.step(this.positions[i], this.chunk);
          if (!step.more) this.dirty.delete(i);
          if (!this.send(i, step)) return;
        }
        if (!this.live && this.sink.buffered >= this.highWater && !(await this.sink.drained())) return;
      }
      this.live = true;
    } finally {
      this.pumping = false;
      if (this.dirty.size > 0) this.schedule();
    }
  }

  /** Writes what a step tells, moving the room's position event by event; false once the stream closed. */
  private send(i: number, step: RoomStep): boolean {
    const frames: Array<Buffer | string> = [];
    const room = this.positions[i].room;
    if (step.reset) {
      this.move(i, { ...this.positions[i], generation: step.reset.generation });
      frames.push(resetFrame(this.cursor(), step.reset));
    }
    if (step.gap) {
      this.move(i, { ...this.positions[i], seq: step.gap.to });
      frames.push(gapFrame(this.cursor(), step.gap));
    }
    const { generation } = step.next;
    if (this.positions.length === 1) {
      // One room: every event is built once per record and shared by all its streams.
      for (const record of step.records) frames.push(singleRoomMessageFrame(room, generation, record));
    } else {
      for (const record of step.records) {
        this.move(i, { room, seq: record.seq, generation });
        frames.push(idLine(this.cursor()), messageDataFrame(room, record));
      }
    }
    this.move(i, step.next);
    if (this.live && this.sink.buffered + bytesOf(frames) > this.limits.bufferBytes) {
      this.close('slow_consumer');
      return false;
    }
    this.sink.writeAll(frames);
    return true;
  }

  private move(i: number, position: Position): void {
    this.positions[i] = position;
    this.entries[i] = entryOf(position);
  }

  private cursor(): string {
    return this.entries.length === 1 ? this.entries[0] : this.entries.join(',');
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.dirty.clear();
    this.onEnd();
  }
}

function entryOf(position: Position): string {
  return `${position.room}:${position.seq}:${position.generation}`;
}

function bytesOf(frames: ReadonlyArray<Buffer | string>): number {
  let total = 0;
  for (const frame of frames) total += typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
  return total;
}
