import { FastifyRequest } from 'fastify';
import { clientKey } from './client-prefix';

/**
 * The identity of each request, settled once by the onRequest hook (see installHttpHooks). Kept as a
 * symbol-keyed property of the raw request: cheaper per request than a WeakMap entry.
 */
const CLIENT = Symbol('agent-chat.client');
type Tagged = { [CLIENT]?: string };

/**
 * The identity per-client budgets (rate buckets, room creation, long-poll slots) are charged to
 * (contract §13.1): the socket peer address, unless the operator named a header to trust
 * (CHAT_CLIENT_IP_HEADER), whose first comma-separated value is used when present. No header is
 * trusted by default — a client can send any of them, and proxies append to X-Forwarded-For, so the
 * first entry is the client's own claim. An IPv6 client is its /64 (see clientKey).
 */
export function identifyClient(request: FastifyRequest, trustedHeader: string): string {
  if (trustedHeader !== '') {
    const raw = request.headers[trustedHeader.toLowerCase()];
    const first = (Array.isArray(raw) ? raw[0] : (raw ?? '')).split(',')[0].trim();
    if (first !== '') return clientKey(first);
  }
  return clientKey(request.socket.remoteAddress ?? request.ip);
}

/** Called once per request before any guard, so the guard and the lanes agree on who is calling. */
export function rememberClient(request: FastifyRequest, trustedHeader: string): void {
  (request.raw as Tagged)[CLIENT] = identifyClient(request, trustedHeader);
}

/** The request's client identity (the socket peer if the hook did not run, e.g. in unit tests). */
export function clientOf(request: FastifyRequest): string {
  return (request.raw as Tagged)[CLIENT] ?? clientKey(request.socket.remoteAddress ?? request.ip);
}

/**
 * The identity a raw connection is counted under before any request arrives (the per-client connection
 * cap, src/http/connections/connection-governor.ts): the socket peer as `identifyClient` keys it (an IPv6 /64).
 */
export function connectionClient(remoteAddress: string | undefined): string {
  return remoteAddress === undefined ? '' : clientKey(remoteAddress);
}
