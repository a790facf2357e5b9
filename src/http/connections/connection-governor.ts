import { Logger } from '@nestjs/common';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { connectionClient } from '../client-identity';
import { clientShare, ConnectionCaps } from './connection-limits';
import { ConnectionTable, TrackedConnection, trackedConnection } from './connection-table';
import { stalledConnections } from './send-deadline';

export interface ConnectionPolicy extends ConnectionCaps {
  /** CHAT_MAX_PIPELINED: requests one connection may have awaiting their replies. */
  readonly maxPipelined: number;
  /** CHAT_SEND_DEADLINE_SECONDS: how long written bytes may wait undrained. */
  readonly sendDeadlineSeconds: number;
}

/** Why connections were closed by the governor, counted since start (metrics, the summary line). */
export interface ConnectionCounts {
  /** Refused at accept: the address already held its share. */
  refusedShare: number;
  /** Refused at accept: the total was reached and every connection was busy. */
  refusedFull: number;
  /** Idle connections closed to admit a new one at the total. */
  shedIdle: number;
  /** Reset because written bytes waited past the send deadline (a client not reading). */
  sendDeadline: number;
  /** Reset because more requests than CHAT_MAX_PIPELINED awaited their replies. */
  pipelined: number;
}

/** Connections beyond the total Node itself drops at accept: only a burst within one tick reaches it. */
const BACKSTOP_SLACK = 64;
const SWEEP_MS = 1000;
const SUMMARY_MS = 60_000;

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

const GOVERNORS = new WeakMap<Server, ConnectionGovernor>();

/** The connection a response answers on, kept on the response (the socket is detached by 'close'). */
const ANSWERING = Symbol('agent-chat.answering');
type Answering = ServerResponse & { [ANSWERING]?: TrackedConnection };

/**
 * Every connection of the public server, from accept to close (issues 18 and 24):
 * - at accept, an address past its share of the pool is refused (clientShare); at the total, the
 *   connection idle the longest is closed to admit the new one (an idle keep-alive socket costs its
 *   client one reconnect; a newcomer refused costs it the service), and only when every connection
 *   has a request in flight is the newcomer refused;
 * - a connection with more than `maxPipelined` requests awaiting replies is reset, and the rest of
 *   the requests already parsed from its buffer are dropped before they reach Fastify (one 64 KiB read
 *   can hold 2,400 pipelined GETs);
 * - every second, a connection whose written bytes waited undrained past the send deadline is reset.
 * A refused connection is destroyed before any byte is read, as Node itself does past maxConnections.
 */
export class ConnectionGovernor {
  readonly counts: ConnectionCounts = {
    refusedShare: 0,
    refusedFull: 0,
    shedIdle: 0,
    sendDeadline: 0,
    pipelined: 0,
  };
  private readonly table = new ConnectionTable();
  private readonly logger = new Logger('Connections');
  private reported = 0;
  private lastSummary = 0;

  /** A reply finished (or its connection closed): its connection may be idle again. One function for
   * every response (it is `this`), so the hot path adds no closure per request. */
  private readonly onResponseClose: (this: Answering) => void;

  private constructor(
    private readonly policy: ConnectionPolicy,
    private readonly now: () => number,
  ) {
    const table = this.table;
    this.onResponseClose = function onResponseClose(this: Answering): void {
      const tracked = this[ANSWERING];
      if (tracked !== undefined) table.requestEnded(tracked, now());
    };
  }

  /** The governor of a server it was installed on (metrics read its counts). */
  static of(server: Server): ConnectionGovernor | undefined {
    return GOVERNORS.get(server);
  }

  static install(server: Server, policy: ConnectionPolicy, now: () => number = Date.now): ConnectionGovernor {
    const governor = new ConnectionGovernor(policy, now);
    GOVERNORS.set(server, governor);
    server.maxConnections = policy.maxConnections + BACKSTOP_SLACK;
    server.on('connection', (socket: Socket) => governor.accept(socket));
    // The request listeners (Fastify's) are called through one that can drop the request: a listener
    // added beside them could count requests but not stop Fastify from routing and answering each one.
    const listeners = server.listeners('request') as RequestListener[];
    server.removeAllListeners('request');
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (!governor.admitRequest(request, response)) return;
      for (let i = 0; i < listeners.length; i++) listeners[i].call(server, request, response);
    });
    const sweep = setInterval(() => governor.sweep(), SWEEP_MS);
    sweep.unref();
    server.once('close', () => clearInterval(sweep));
    return governor;
  }

  /** Connections open now. */
  get open(): number {
    return this.table.size;
  }

  /** Open connections with no request in flight. */
  get idle(): number {
    return this.table.idleCount;
  }

  private accept(socket: Socket): void {
    const client = connectionClient(socket.remoteAddress);
    const held = this.table.held(client);
    if (held >= clientShare(this.policy, this.table.size)) return this.refuse(socket, 'refusedShare');
    if (this.table.size >= this.policy.maxConnections) {
      const shed = this.table.longestIdle();
      if (shed === undefined) return this.refuse(socket, 'refusedFull');
      this.table.remove(shed);
      shed.socket.destroy();
      this.count('shedIdle');
    }
    const tracked = this.table.add(socket, client, this.now());
    socket.once('close', () => this.table.remove(tracked));
  }

  /** False when the request must not be served: its connection was reset (or is reset now). */
  private admitRequest(request: IncomingMessage, response: ServerResponse): boolean {
    const tracked = trackedConnection(request.socket);
    if (tracked === undefined) return !request.socket.destroyed;
    if (tracked.closed) return false;
    this.table.requestStarted(tracked);
    if (tracked.inFlight > this.policy.maxPipelined) {
      this.reset(tracked, 'pipelined');
      return false;
    }
    // One shared listener, the connection kept on the response: no closure per request on the hot path.
    (response as Answering)[ANSWERING] = tracked;
    response.on('close', this.onResponseClose);
    return true;
  }

  private sweep(): void {
    const now = this.now();
    for (const tracked of stalledConnections(this.table, now, this.policy.sendDeadlineSeconds * 1000)) {
      this.reset(tracked, 'sendDeadline');
    }
    this.summarise(now);
  }

  /** RST, so the kernel frees the connection's queues now (a FIN would keep them while it retries). */
  private reset(tracked: TrackedConnection, reason: 'pipelined' | 'sendDeadline'): void {
    this.table.remove(tracked);
    // resetAndDestroy on a socket already destroyed would emit ERR_SOCKET_CLOSED as an error.
    if (!tracked.socket.destroyed) tracked.socket.resetAndDestroy();
    this.count(reason);
  }

  private refuse(socket: Socket, reason: 'refusedShare' | 'refusedFull'): void {
    socket.destroy();
    this.count(reason);
  }

  private count(reason: keyof ConnectionCounts): void {
    this.counts[reason] += 1;
  }

  /** At most one line a minute, and only when the governor closed something since the last one. */
  private summarise(now: number): void {
    if (now - this.lastSummary < SUMMARY_MS) return;
    const c = this.counts;
    const total = c.refusedShare + c.refusedFull + c.shedIdle + c.sendDeadline + c.pipelined;
    if (total === this.reported) return;
    this.reported = total;
    this.lastSummary = now;
    this.logger.warn(
      `connections closed by the limits since start: ${c.refusedShare} refused (address over its share), ` +
        `${c.refusedFull} refused (all ${this.policy.maxConnections} busy), ${c.shedIdle} idle shed for newcomers, ` +
        `${c.sendDeadline} reset (replies unread for ${this.policy.sendDeadlineSeconds}s), ${c.pipelined} reset ` +
        `(over ${this.policy.maxPipelined} pipelined); ${this.table.size} open now`,
    );
  }
}
