import { StoredRecord } from '../../rooms/read-side/stored-record';
import { gapJson, resetJson, roomMessageJson } from '../http/watch-json.renderer';
import { Gap, Reset } from '../room-steps';

/**
 * The text/event-stream frames of the streams (WHATWG HTML §9.2). Every message is one event whose
 * `data` is one JSON line, `{"room":…,"message":<the stored line, byte for byte>}`, dispatched as the
 * default `message` type (EventSource's onmessage); `gap`, `reset`, `ready` and `closed` are named
 * events. Every event that moves the reader carries an `id`: the cursor of the whole stream after it,
 * which `Last-Event-ID` brings back on a reconnect. Ids and data never hold a newline or NUL (JSON
 * escapes them, names and numbers cannot), as the format requires.
 */

/** Sent first: how long EventSource should wait before reconnecting (milliseconds). */
export const RETRY_FRAME = Buffer.from('retry: 2000\n\n');

/** A comment line: keeps proxies from closing a quiet connection; EventSource ignores it. */
export const HEARTBEAT_FRAME = Buffer.from(':\n\n');

export function idLine(cursor: string): string {
  return `id: ${cursor}\n`;
}

/** Message data of a record, kept per record object: every stream of its room sends the same bytes. */
const messageData = new WeakMap<StoredRecord, Buffer>();
export function messageDataFrame(room: string, record: StoredRecord): Buffer {
  let frame = messageData.get(record);
  if (frame === undefined) {
    frame = Buffer.from(`data: ${roomMessageJson(room, record.line)}\n\n`, 'utf8');
    messageData.set(record, frame);
  }
  return frame;
}

/**
 * A whole message event of a one-room stream, id included (`<room>:<seq>:<generation>` is the same
 * for every subscriber), kept per record object: one write to a room reaches 5,000 streams as one
 * Buffer handed to 5,000 sockets.
 */
const singleRoomFrames = new WeakMap<StoredRecord, { generation: number; frame: Buffer }>();
export function singleRoomMessageFrame(room: string, generation: number, record: StoredRecord): Buffer {
  const cached = singleRoomFrames.get(record);
  if (cached !== undefined && cached.generation === generation) return cached.frame;
  const frame = Buffer.concat([
    Buffer.from(idLine(`${room}:${record.seq}:${generation}`)),
    messageDataFrame(room, record),
  ]);
  singleRoomFrames.set(record, { generation, frame });
  return frame;
}

export function gapFrame(cursor: string, gap: Gap): string {
  return `${idLine(cursor)}event: gap\ndata: ${gapJson(gap)}\n\n`;
}

export function resetFrame(cursor: string, reset: Reset): string {
  return `${idLine(cursor)}event: reset\ndata: ${resetJson(reset)}\n\n`;
}

export interface ReadyRoom {
  readonly room: string;
  readonly generation: number;
  /** The room's newest seq now. */
  readonly head: number;
}

/** The first event: where the stream starts (its id) and the state of each room. */
export function readyFrame(cursor: string, rooms: readonly ReadyRoom[], heartbeatSeconds: number): string {
  const list = rooms
    .map((r) => `{"room":${JSON.stringify(r.room)},"generation":${r.generation},"head":${r.head}}`)
    .join(',');
  return (
    `${idLine(cursor)}event: ready\n` +
    `data: {"cursor":${JSON.stringify(cursor)},"rooms":[${list}],"heartbeat_seconds":${heartbeatSeconds}}\n\n`
  );
}

/** Why the server ends a stream; the client reconnects with Last-Event-ID (EventSource does on its own). */
export type CloseReason = 'slow_consumer' | 'stalled' | 'shutdown';

const CLOSE_DETAIL: Readonly<Record<CloseReason, string>> = {
  slow_consumer:
    'this stream fell further behind than its buffer allows; reconnect with Last-Event-ID to resume (the ring keeps what you missed, a gap event says what it no longer holds)',
  stalled: 'nothing written to this stream was taken for too long; reconnect with Last-Event-ID to resume',
  shutdown:
    'the server is shutting down; reconnect (to another node, or here in a moment) with Last-Event-ID to resume',
};

/** The last event before the server ends a stream. No id: the reader's position is the last one it got. */
export function closedFrame(reason: CloseReason): string {
  return `event: closed\ndata: {"reason":"${reason}","detail":${JSON.stringify(CLOSE_DETAIL[reason])}}\n\n`;
}
