import { FastifyInstance } from 'fastify';
import { createPino, LogLevel } from '../common/nest-logger';
import { clientOf } from './client-identity';

/**
 * One JSON line per answered request at `info` (issue 16): method, route template (`null` when no route
 * matched, so a scanner's paths never reach the logs), status, milliseconds, client key. Never the
 * path itself, the text, a note value or a signature: those travel in the URL and would turn the log
 * into a second copy of the data. A Fastify onResponse hook, not a Nest interceptor (which costs
 * 40–80 % per request); below `info`, or with a sample of 0, the hook is not installed at all.
 * `sample` (CHAT_REQUEST_LOG_SAMPLE) logs that share of requests at random; a 5xx is always logged.
 */
export function installRequestLog(fastify: FastifyInstance, level: LogLevel, sample = 1): void {
  if ((level !== 'debug' && level !== 'info') || sample <= 0) return;
  const log = createPino(level, false);
  fastify.addHook('onResponse', (request, reply, done) => {
    if (sample < 1 && reply.statusCode < 500 && Math.random() >= sample) return done();
    log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        client: clientOf(request),
      },
      'request',
    );
    done();
  });
}
