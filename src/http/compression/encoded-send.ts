import { FastifyReply } from 'fastify';
import { pipeline, Readable } from 'node:stream';
import { negotiateCoding } from './accept-encoding';
import { CompressedBody } from './compressed-body';
import { encodeIfSmaller, encodingStream, MIN_COMPRESSED_BYTES } from './content-coding';

/** What a presenter hands over: text, bytes, or a cached body that keeps its encodings. */
export type ReplyBody = string | Buffer | CompressedBody;

/**
 * Sends `body` in the coding the request accepts (contract §1.1). A CompressedBody is encoded once
 * per coding and reused; any other body of at least MIN_COMPRESSED_BYTES is encoded for this request
 * at the cheap effort. Fastify sets Content-Length from the bytes sent, so a HEAD announces the same
 * length and coding as the GET. `Vary: Accept-Encoding` is already on every reply (http-hooks.ts).
 */
export function sendEncoded(reply: FastifyReply, body: ReplyBody): void {
  const coding = negotiateCoding(reply.request.headers['accept-encoding']);
  const plain = body instanceof CompressedBody ? body.plain : body;
  if (coding === null) return void reply.send(plain);
  let encoded: Buffer | null;
  if (body instanceof CompressedBody) encoded = body.in(coding);
  else if (typeof body === 'string') {
    encoded =
      Buffer.byteLength(body, 'utf8') < MIN_COMPRESSED_BYTES
        ? null
        : encodeIfSmaller(Buffer.from(body, 'utf8'), coding, 'per-request');
  } else encoded = encodeIfSmaller(body, coding, 'per-request');
  if (encoded === null) return void reply.send(plain);
  reply.header('content-encoding', coding).send(encoded);
}

/**
 * Sends a stream of unknown length (exports), compressed on the way when the request accepts it. A
 * HEAD gets the header a GET would get, and the raw stream, which Fastify drains unread, so no CPU
 * goes into compressing a body nobody receives.
 */
export function sendEncodedStream(reply: FastifyReply, stream: Readable): void {
  const coding = negotiateCoding(reply.request.headers['accept-encoding']);
  if (coding === null) return void reply.send(stream);
  reply.header('content-encoding', coding);
  if (reply.request.method === 'HEAD') return void reply.send(stream);
  // pipeline destroys the source (and closes its file) if the client goes away mid-stream
  reply.send(pipeline(stream, encodingStream(coding), () => undefined));
}
