import { FastifyReply } from 'fastify';
import { ReplyBody, sendEncoded } from './compression/encoded-send';

export type CachePolicy = 'no-store' | 'shareable';

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json';

/**
 * Response writing shared by every route (contract §1.2, §1.4): content types, the cache policy, the
 * nosniff/noindex headers, the rule that every text body ends with exactly one newline, and the
 * content coding the client accepts (compression/encoded-send.ts).
 */
export class Replies {
  private readonly shareable: string;

  constructor(edgeCacheSeconds: number) {
    this.shareable =
      edgeCacheSeconds > 0
        ? `public, max-age=0, s-maxage=${edgeCacheSeconds}, stale-while-revalidate=${5 * edgeCacheSeconds}`
        : 'no-store';
  }

  /** A Buffer or cached body is sent as is: its producer guarantees the trailing newline (cached renderings). */
  text(reply: FastifyReply, body: ReplyBody, cache: CachePolicy = 'no-store', status = 200): void {
    reply
      .code(status)
      .header('content-type', TEXT)
      .header('cache-control', cache === 'shareable' ? this.shareable : 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('x-robots-tag', 'noindex');
    sendEncoded(reply, typeof body !== 'string' || body.endsWith('\n') ? body : `${body}\n`);
  }

  json(reply: FastifyReply, body: ReplyBody, cache: CachePolicy = 'no-store'): void {
    reply
      .code(200)
      .header('content-type', JSON_TYPE)
      .header('cache-control', cache === 'shareable' ? this.shareable : 'no-store')
      .header('x-robots-tag', 'noindex');
    sendEncoded(reply, typeof body === 'string' ? Buffer.from(body, 'utf8') : body); // a Buffer keeps Fastify from adding a charset
  }
}
