import { FastifyInstance } from 'fastify';
import { headerBlockRefusal, HeaderLimits } from './header-limits';
import { setBodyDeadline } from './body/body-reader';
import { rememberClient } from './client-identity';
import { duplicateHostRefusal } from './duplicate-host';
import { closeIfBodyUnread } from './unread-body';
import { methodNotAllowedText } from './render/route-map.text';
import { Replies } from './reply';
import { isWriteGetPath } from './routes/route-table';
import { requestPath } from './url/decode-path';
import { ShuttingDownError } from './refusals/shutting-down.error';
import { MissingHostError } from './refusals/missing-host.error';

export interface HttpHookOptions extends HeaderLimits {
  /** CHAT_CLIENT_IP_HEADER: the header naming the client, or '' for the socket peer. */
  readonly clientIpHeader: string;
  /** CHAT_BODY_DEADLINE_SECONDS: total time a POST body may take to arrive. */
  readonly bodyDeadlineSeconds: number;
}

/**
 * Fastify-level behaviour that must happen before any Nest guard or handler runs, in this order:
 * - every reply varies on Accept-Encoding (contract §1.1), whether or not this one is compressed
 *   (compression/encoded-send.ts); set first so refusals carry it too, and later `addVary` calls
 *   (CORS: Origin; documents: Accept, Host) add to it;
 * - a header block over its limits is refused with 431 before anything else (contract §1.1), and a
 *   request naming its Host twice with 400 (RFC 9112), and an HTTP/1.1 request naming none (Node's own
 *   check is off, see serverTimeouts); either closes a connection whose body is unread;
 * - the client identity is settled once, so the rate guard and the lanes charge the same client, and
 *   a POST learns its upload deadline;
 * - HEAD on a GET that writes is refused with 405 `Allow: GET` (HEAD must never write, contract §1.1);
 * - once the server is closing, a request (a keep-alive connection's next one) gets the 503 of the
 *   error table through the exception filter, in place of Fastify's JSON one;
 * - no framework body parsing: every content type (or none) hands the raw stream to the route, which
 *   reads it after the guards under the body cap and upload deadline (src/http/body/body-reader.ts).
 */
export function installHttpHooks(fastify: FastifyInstance, options: HttpHookOptions): void {
  const replies = new Replies(0);
  // With a listener here Node no longer answers `Expect: 100-continue` by itself: the body reader
  // sends the 100 when a route starts reading, so a refusal goes out without a 100 before it.
  fastify.server.on('checkContinue', (req, res) => fastify.server.emit('request', req, res));
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('vary', 'Accept-Encoding');
    if (closing) return done(new ShuttingDownError());
    const tooLarge = headerBlockRefusal(request.raw.rawHeaders, options);
    if (tooLarge !== null) {
      closeIfBodyUnread(request, reply);
      return replies.text(reply, tooLarge, 'no-store', 431);
    }
    const hosts = duplicateHostRefusal(request.raw.rawHeaders);
    if (hosts !== null) {
      closeIfBodyUnread(request, reply);
      return replies.text(reply, hosts, 'no-store', 400);
    }
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1')
      return done(new MissingHostError());
    rememberClient(request, options.clientIpHeader);
    if (request.method === 'POST') setBodyDeadline(request, options.bodyDeadlineSeconds);
    if (request.method === 'HEAD' && isWriteGetPath(requestPath(request.url))) {
      reply.header('allow', 'GET');
      return replies.text(reply, methodNotAllowedText('HEAD', ['GET']), 'no-store', 405);
    }
    done();
  });
}
