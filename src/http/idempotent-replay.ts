import { FastifyReply } from 'fastify';

/**
 * Marks a write reply that answers a retry (issue 28): `Idempotent-Replayed: true`, exposed to
 * browser scripts (CORS hides other response headers) so a page can tell its retry was a replay.
 */
export function markReplayed(reply: FastifyReply): void {
  reply.header('idempotent-replayed', 'true').header('access-control-expose-headers', 'Idempotent-Replayed');
}
