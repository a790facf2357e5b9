import { FastifyRequest } from 'fastify';

/**
 * The identity per-client budgets are charged to: the socket's peer address. (Trusting a proxy
 * header is a configuration decision of the rate-limit work; never X-Forwarded-For by default.)
 */
export function clientOf(request: FastifyRequest): string {
  return request.socket.remoteAddress ?? request.ip;
}
