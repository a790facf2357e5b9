import { listItems } from '../config/list-items';
import { addVary } from './vary';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const ALLOWED_METHODS = ['GET', 'POST'];
/** The CORS-safelisted request headers (what Starlette allows by default), in its sorted order. */
const ALLOWED_HEADERS = ['Accept', 'Accept-Language', 'Content-Language', 'Content-Type'];
const PREFLIGHT_MAX_AGE = '600';
/**
 * Request headers of the additions (issue 28) a browser may ask to send: `Idempotency-Key` on a write,
 * `Last-Event-ID` on a stream's reconnect. Allowed when a preflight asks for them, and only then named
 * in Access-Control-Allow-Headers, so a preflight that does not ask gets the same bytes as before.
 */
const EXTRA_HEADERS = ['Idempotency-Key', 'Last-Event-ID'];

/** Parses CHAT_CORS_ORIGINS: comma-separated origins, blanks ignored; `*` allows every origin. */
export function parseCorsOrigins(raw: string): ReadonlySet<string> {
  return new Set(listItems(raw));
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Browser CORS the reference's way (contract §1.1, spec Authentication §9): origins from
 * CHAT_CORS_ORIGINS (none by default), methods GET and POST, no credentials. Every request carrying
 * Origin gets `Vary: Origin`; an allowed origin also gets `Access-Control-Allow-Origin`. A preflight
 * (OPTIONS with Origin and Access-Control-Request-Method) is answered here, before routing: 200 with
 * the allow headers, or 400 `Disallowed CORS origin` (and/or `method`, `headers`, Starlette's words).
 * Disallowed simple requests still run — the browser, not the server, withholds the reply.
 */
export function installCorsHooks(fastify: FastifyInstance, origins: ReadonlySet<string>): void {
  const allowAll = origins.has('*');
  const allowed = (origin: string): boolean => allowAll || origins.has(origin);
  fastify.addHook('onRequest', (request, reply, done) => {
    const origin = header(request, 'origin');
    if (origin === undefined) return done();
    const requestedMethod = header(request, 'access-control-request-method');
    if (request.method === 'OPTIONS' && requestedMethod !== undefined) {
      return preflight(reply, origin, requestedMethod, header(request, 'access-control-request-headers'));
    }
    if (allowed(origin)) reply.header('access-control-allow-origin', allowAll ? '*' : origin);
    addVary(reply, 'Origin');
    done();
  });
  // Routes that vary on more (documents: Accept, Host) add to this header with addVary, so no
  // onSend hook is needed to put Origin back: one hook less on every reply.

  function preflight(reply: FastifyReply, origin: string, method: string, requested?: string): void {
    const failures: string[] = [];
    const asked = (requested ?? '').split(',').map((h) => h.trim().toLowerCase());
    const extras = EXTRA_HEADERS.filter((h) => asked.includes(h.toLowerCase()));
    reply
      .header('access-control-allow-methods', ALLOWED_METHODS.join(', '))
      .header('access-control-max-age', PREFLIGHT_MAX_AGE)
      .header('access-control-allow-headers', [...ALLOWED_HEADERS, ...extras].join(', '));
    if (allowed(origin)) reply.header('access-control-allow-origin', allowAll ? '*' : origin);
    else failures.push('origin');
    if (!ALLOWED_METHODS.includes(method.trim().toUpperCase())) failures.push('method');
    const safelisted = new Set([...ALLOWED_HEADERS, ...EXTRA_HEADERS].map((h) => h.toLowerCase()));
    if (asked.some((h) => h !== '' && !safelisted.has(h))) failures.push('headers');
    addVary(reply, 'Origin');
    reply
      .code(failures.length === 0 ? 200 : 400)
      .header('content-type', 'text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(failures.length === 0 ? 'OK\n' : `Disallowed CORS ${failures.join(', ')}\n`);
  }
}
