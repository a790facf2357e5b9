import { STATUS_CODES, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { DomainError } from '../../common/domain-error';
import { ERROR_STATUS } from '../error-status.table';
import { lingerOnClose } from '../lingering-close';

/** The status of a refusal: from the one table, never from the error itself. */
export function refusalStatus(error: DomainError): number {
  return ERROR_STATUS[error.code];
}

/** The body of every refusal (contract §14): the status, a space, the message that names the correction. */
export function refusalText(error: DomainError): string {
  return `${refusalStatus(error)} ${error.message}`;
}

/** The headers Replies.text sends with every refusal, as one block (lower case, like Fastify's). */
const TEXT_HEADERS: Readonly<Record<string, string>> = {
  vary: 'Accept-Encoding',
  'content-type': 'text/plain; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-robots-tag': 'noindex',
};

function refusalHeaders(error: DomainError, body: Buffer): Record<string, string> {
  return {
    ...TEXT_HEADERS,
    ...error.headers,
    connection: 'close',
    'content-length': String(body.length),
  };
}

/**
 * Answers `error` on a Node response no route owns (Node-level events such as checkExpectation): the
 * same bytes the exception filter would send, and the connection closes after it.
 */
export function sendRefusal(response: ServerResponse, error: DomainError): void {
  const body = Buffer.from(`${refusalText(error)}\n`, 'utf8');
  response.writeHead(refusalStatus(error), refusalHeaders(error, body));
  response.end(body);
}

const REFUSED = Symbol('agent-chat.refused-connection');
type Marked = Socket & { [REFUSED]?: true };

/**
 * Answers `error` on a bare connection (a request Node's parser refused, or timed out, or a CONNECT):
 * a whole HTTP/1.1 response in the filter's format, then a lingering close, so a client still sending
 * reads the reply instead of a reset. Only the first refusal of a connection is written: a parser in
 * error reports again on every later chunk.
 */
export function refuseConnection(socket: Socket, error: DomainError): void {
  const marked = socket as Marked;
  if (marked[REFUSED] || socket.destroyed) return;
  marked[REFUSED] = true;
  const body = Buffer.from(`${refusalText(error)}\n`, 'utf8');
  const status = refusalStatus(error);
  const head = Object.entries(refusalHeaders(error, body))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.on('error', () => undefined); // a peer gone mid-reply is not this process's failure
  if (socket.writable)
    socket.write(
      Buffer.concat([
        Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n`, 'latin1'),
        body,
      ]),
    );
  lingerOnClose(socket);
  socket.destroySoon();
}
