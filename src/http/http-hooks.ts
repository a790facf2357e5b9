import { FastifyInstance } from 'fastify';
import { methodNotAllowedText } from './render/route-map.text';
import { isWriteGetPath } from './routes/route-table';
import { requestPath } from './url/decode-path';

/**
 * Fastify-level behaviour that must happen before any Nest guard or handler runs:
 * - no framework body parsing: every content type (or none) hands the raw stream to the route, which
 *   reads it after the guards under the body cap and upload deadline (src/http/body/body-reader.ts);
 * - HEAD on a GET that writes is refused with 405 `Allow: GET` (HEAD must never write, contract §1.1).
 */
export function installHttpHooks(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'HEAD' && isWriteGetPath(requestPath(request.url))) {
      reply
        .code(405)
        .header('allow', 'GET')
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(`${methodNotAllowedText('HEAD', ['GET'])}\n`);
      return;
    }
    done();
  });
}
