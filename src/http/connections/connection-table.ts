import { Socket } from 'node:net';

/** Send-deadline bookkeeping of one connection (see send-deadline.ts). */
export interface Stall {
  /** When (ms) undrained bytes were first seen. */
  readonly since: number;
  /** `socket.bytesWritten` then: those bytes must all be accepted by the kernel within the deadline. */
  readonly target: number;
}

/** One open connection as the governor sees it. */
export interface TrackedConnection {
  readonly socket: Socket;
  /** The client address it is counted under (connectionClient: an IPv6 /64 is one client). */
  readonly client: string;
  /** Requests received on it whose replies have not finished (more than one only when pipelined). */
  inFlight: number;
  stall: Stall | null;
  closed: boolean;
}

const TRACKED = Symbol('agent-chat.connection');
type Marked = Socket & { [TRACKED]?: TrackedConnection };

/** The governor's record of `socket`, if the socket belongs to a governed server and is still open. */
export function trackedConnection(socket: Socket | null | undefined): TrackedConnection | undefined {
  return (socket as Marked | null | undefined)?.[TRACKED];
}

/**
 * Every open connection of one server: how many each client address holds, how many requests each
 * has in flight, and which are idle (no request in flight), the longest idle first.
 *
 * Invariants: a connection is in `idle` exactly when it is open and has no request in flight; the
 * per-client counts sum to `size`, and a client holding none has no entry (the tables never outgrow
 * the open connections).
 */
export class ConnectionTable {
  private readonly open = new Set<TrackedConnection>();
  private readonly perClient = new Map<string, number>();
  /** Idle connections and since when (ms), in the order they became idle (a Map keeps insertion order). */
  private readonly idle = new Map<TrackedConnection, number>();

  get size(): number {
    return this.open.size;
  }

  get idleCount(): number {
    return this.idle.size;
  }

  /** Connections `client` holds now. */
  held(client: string): number {
    return this.perClient.get(client) ?? 0;
  }

  add(socket: Socket, client: string, now: number): TrackedConnection {
    const tracked: TrackedConnection = { socket, client, inFlight: 0, stall: null, closed: false };
    (socket as Marked)[TRACKED] = tracked;
    this.open.add(tracked);
    this.perClient.set(client, this.held(client) + 1);
    this.idle.set(tracked, now);
    return tracked;
  }

  remove(tracked: TrackedConnection): void {
    if (tracked.closed) return;
    tracked.closed = true;
    this.open.delete(tracked);
    this.idle.delete(tracked);
    const left = this.held(tracked.client) - 1;
    if (left > 0) this.perClient.set(tracked.client, left);
    else this.perClient.delete(tracked.client);
  }

  /** A request arrived on the connection: it is busy until every request in flight is answered. */
  requestStarted(tracked: TrackedConnection): void {
    tracked.inFlight += 1;
    this.idle.delete(tracked);
  }

  /** A reply finished (or its connection closed): idle again, as the newest idle, once none is left. */
  requestEnded(tracked: TrackedConnection, now: number): void {
    tracked.inFlight = Math.max(0, tracked.inFlight - 1);
    if (tracked.inFlight === 0 && !tracked.closed) this.idle.set(tracked, now);
  }

  /** The connection idle the longest (a keep-alive socket between requests, or one that never sent one). */
  longestIdle(): TrackedConnection | undefined {
    return this.idle.keys().next().value;
  }

  connections(): IterableIterator<TrackedConnection> {
    return this.open.values();
  }
}
