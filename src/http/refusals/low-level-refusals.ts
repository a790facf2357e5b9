import { maxHeaderSize, Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { DomainError } from '../../common/domain-error';
import { BODY_CAP_BYTES } from '../body/body-reader';
import { ExpectationFailedError } from './expectation-failed.error';
import { MalformedRequestError } from './malformed-request.error';
import { MethodNotAllowedError } from './method-not-allowed.error';
import { refuseConnection, sendRefusal } from './refusal-text';
import { RequestHeadTooLargeError } from './request-head-too-large.error';
import { RequestTimeoutError } from './request-timeout.error';

export interface ParserLimits {
  readonly requestTimeoutSeconds: number;
  readonly headersTimeoutSeconds: number;
}

interface NodeClientError extends Error {
  readonly code?: string;
  readonly reason?: string;
}

/** The refusal for an error Node's HTTP server reports on a connection (parser, timers). */
export function clientErrorRefusal(error: NodeClientError, limits: ParserLimits): DomainError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RequestTimeoutError(limits.requestTimeoutSeconds, limits.headersTimeoutSeconds);
    case 'HPE_HEADER_OVERFLOW':
      return new RequestHeadTooLargeError(maxHeaderSize, BODY_CAP_BYTES);
    default:
      return new MalformedRequestError(error.code, error.reason);
  }
}

type PendingReply = ServerResponse | undefined;

/** The reply Node is writing on `socket` now (the oldest in flight), if any. */
function replyUnderWay(socket: Socket): PendingReply {
  // Node's own field: the response assigned to the socket, null once the last one detached.
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/**
 * Refuses on `socket` once the replies to requests that arrived whole before the bad bytes are out
 * (they were parsed and are being answered: the refusal must not overtake them). A reply whose own
 * request was cut short by the error can never finish properly: the refusal goes out in its place,
 * unless it already started (then, as Node does, the connection just ends: a second status line
 * would corrupt it).
 */
function refuseAfterPendingReplies(socket: Socket, error: DomainError): void {
  const pending = replyUnderWay(socket);
  if (pending === undefined || socket.destroyed) return refuseConnection(socket, error);
  if (!pending.req.complete) {
    if (pending.headersSent) socket.destroy();
    else refuseConnection(socket, error);
    return;
  }
  // Node ends the connection right after a reply that closes it (`Connection: close`): the refusal
  // goes out first.
  socket.destroySoon = () => refuseConnection(socket, error);
  const retry = (): void => void setImmediate(() => refuseAfterPendingReplies(socket, error));
  pending.once('finish', retry);
  socket.once('close', () => pending.off('finish', retry));
}

/**
 * Fastify's `clientErrorHandler`: what Node's parser and request timers refuse (issue 24 item 8) gets
 * the text/plain refusal every route gives (contract §14), where Fastify wrote JSON, after any reply
 * still owed to an earlier request on the connection.
 */
export function clientErrorHandler(limits: ParserLimits): (error: NodeClientError, socket: Socket) => void {
  // A parser in error reports again on every later chunk of the connection: one refusal is scheduled.
  const scheduled = new WeakSet<Socket>();
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed || scheduled.has(socket)) return;
    scheduled.add(socket);
    refuseAfterPendingReplies(socket, clientErrorRefusal(error, limits));
  };
}

/**
 * The Node-level events that answered without a body or not at all: an `Expect` other than
 * 100-continue (Node sent an empty 417) and CONNECT (Node dropped the connection without a word).
 */
export function installNodeRefusals(server: Server): void {
  server.on('checkExpectation', (request, response) =>
    sendRefusal(response, new ExpectationFailedError(String(request.headers.expect ?? ''))),
  );
  server.on('connect', (request, socket: Socket) =>
    refuseConnection(socket, new MethodNotAllowedError(request.method ?? 'CONNECT')),
  );
}
