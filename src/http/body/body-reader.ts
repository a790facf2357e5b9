import { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { parseNonNegativeInt } from '../../common/py-compat/py-number';
import { BodyTimeoutError } from './body-timeout.error';
import { BodyTooLargeError } from './body-too-large.error';
import { JsonObject, parseJsonObject } from './json-object.parser';

export const BODY_CAP_BYTES = 262_144;
/** The default of CHAT_BODY_DEADLINE_SECONDS. */
export const BODY_DEADLINE_SECONDS = 10;

/** The upload deadline of each POST, set by the onRequest hook from the config (see installHttpHooks). */
const DEADLINE = Symbol('agent-chat.body-deadline');
type Tagged = { [DEADLINE]?: number };

export function setBodyDeadline(request: FastifyRequest, seconds: number): void {
  (request.raw as Tagged)[DEADLINE] = seconds;
}

/**
 * Reads a POST body after the guards ran (the rate token is spent before the body is read, §8.7):
 * the catch-all content-type parser hands the raw stream through untouched, and this reads it with the
 * 256 KiB cap (declared Content-Length first, then the streamed size) and the total upload deadline
 * measured from the start of the request.
 */
export async function readJsonBody(request: FastifyRequest, reply: FastifyReply): Promise<JsonObject> {
  return parseJsonObject(await readRawBody(request, reply));
}

function readRawBody(request: FastifyRequest, reply: FastifyReply): Promise<Buffer> {
  const declared = parseNonNegativeInt(request.headers['content-length']);
  if (declared !== null && declared > BigInt(BODY_CAP_BYTES)) {
    return Promise.reject(new BodyTooLargeError(BODY_CAP_BYTES, declared));
  }
  const stream = request.body;
  if (!(stream instanceof Readable)) return Promise.resolve(Buffer.alloc(0));
  // Every check before the body has passed: now the client may send it (see installHttpHooks).
  if (/^100-continue$/i.test(request.headers.expect ?? '') && !reply.raw.headersSent) {
    reply.raw.writeContinue();
  }
  const deadlineSeconds = (request.raw as Tagged)[DEADLINE] ?? BODY_DEADLINE_SECONDS;
  const remainingMs = deadlineSeconds * 1000 - reply.elapsedTime;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | null, body?: Buffer): void => {
      clearTimeout(timer);
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      if (error) {
        stream.resume(); // let the socket drain or close; the reply goes out now
        reject(error);
      } else resolve(body!);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > BODY_CAP_BYTES) finish(new BodyTooLargeError(BODY_CAP_BYTES, null));
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(null, Buffer.concat(chunks, size));
    const onError = (error: Error): void => finish(error);
    const timer = setTimeout(() => finish(new BodyTimeoutError(deadlineSeconds)), Math.max(0, remainingMs));
    stream.on('data', onData).on('end', onEnd).on('error', onError);
  });
}
