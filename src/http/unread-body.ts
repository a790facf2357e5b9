import { FastifyReply, FastifyRequest } from 'fastify';
import { lingerOnClose } from './lingering-close';

/**
 * A reply that leaves the request body unread (a refusal before the route read it: 429, 413 by
 * Content-Length, 404, 400…) ends the connection (issue 18): otherwise the client could keep the
 * socket by trickling the rest of a body nobody reads. `Connection: close`, then a lingering close so
 * the client still reads the reply while it is sending. A request without a body never pays for
 * this (`complete` may still be false while its headers are being handled synchronously).
 */
export function closeIfBodyUnread(request: FastifyRequest, reply: FastifyReply): void {
  const { headers } = request.raw;
  const hasBody =
    headers['transfer-encoding'] !== undefined ||
    (headers['content-length'] !== undefined && headers['content-length'] !== '0');
  if (!hasBody || request.raw.complete) return;
  reply.header('connection', 'close');
  lingerOnClose(request.raw.socket);
}
