import { Socket } from 'node:net';
import { ConnectionTable, TrackedConnection, trackedConnection } from './connection-table';

/**
 * The send deadline (issue 24 item 6). A client that sends requests and never reads the replies used
 * to keep its socket, the kernel's send queue (up to `net.ipv4.tcp_wmem`'s maximum, ~3.7 MB measured)
 * and whatever Node had buffered, for ever: no Node timer runs while a reply is being written. Now
 * every byte handed to a connection must be accepted by the kernel within the deadline; bytes that
 * wait longer mean the client stopped reading, and the connection is reset (RST: the kernel drops its
 * queue at once, where a FIN would leave an orphan holding it for minutes).
 *
 * The deadline is about undrained bytes, never about age: a long-poll parked for CHAT_MAX_WAIT writes
 * nothing, and a long-lived stream (server-sent events) whose client keeps reading drains every
 * chunk, so neither is ever cut. Node sees only its own buffer: bytes the kernel took count as
 * drained, so a reply that fits in the kernel's buffers is bounded by the kernel (see
 * docs/operations.md, `tcp_notsent_lowat`) and by the keep-alive timeout instead.
 *
 * Checked by a sweep every second: at each look a connection with bytes pending remembers how many
 * bytes it had been handed (`bytesWritten`); once the kernel accepted all of those (`bytesWritten −
 * writableLength` reached it) the clock restarts from the bytes pending then. So the oldest unsent
 * byte is never older than the deadline plus one sweep.
 */
export function stalledConnections(
  table: ConnectionTable,
  now: number,
  deadlineMs: number,
): TrackedConnection[] {
  const stalled: TrackedConnection[] = [];
  for (const tracked of table.connections()) {
    const { socket } = tracked;
    const pending = socket.writableLength;
    if (pending === 0) {
      tracked.stall = null;
      continue;
    }
    const written = socket.bytesWritten;
    if (tracked.stall === null || written - pending >= tracked.stall.target) {
      tracked.stall = { since: now, target: written };
    } else if (now - tracked.stall.since >= deadlineMs) {
      stalled.push(tracked);
    }
  }
  return stalled;
}

/** How far a connection's client is behind in reading what was written to it. */
export interface SendBacklog {
  /** Bytes Node holds that the kernel has not accepted yet (the client is not reading fast enough). */
  readonly pendingBytes: number;
  /** Milliseconds the oldest of them has been waiting, as of the last sweep (0 when none wait). */
  readonly stalledMs: number;
}

/**
 * For long-lived replies (server-sent events, streamed exports): how far behind this reply's client
 * is, so a stream can coalesce or skip what it would write next rather than queue it, and end the
 * stream itself (with a last event saying why) before the send deadline resets the connection. A
 * socket of a server without the governor (or Fastify inject) reports only Node's buffer.
 */
export function sendBacklog(socket: Socket, now: number = Date.now()): SendBacklog {
  const stall = trackedConnection(socket)?.stall ?? null;
  const pendingBytes = socket.writableLength;
  return {
    pendingBytes,
    stalledMs: stall === null || pendingBytes === 0 ? 0 : Math.max(0, now - stall.since),
  };
}
