import { FastifyInstance, FastifyRequest } from 'fastify';
import { ActiveSpan, SpanRecorder } from './span-recorder';

interface RequestSpans {
  readonly request: ActiveSpan;
  lane?: ActiveSpan;
  reply?: ActiveSpan;
}

const SPANS = Symbol('traceSpans');
type Traced = FastifyRequest & { [SPANS]?: RequestSpans };

/**
 * A trace per request, in Fastify hooks installed only when tracing is on: the request span
 * (`GET /r/:room`: method and route template, never the path's text, which carries messages), the
 * lane span (guards, the service's checks, the write and its wait for durability and apply: from the
 * handler's start to the reply's first byte) and the reply span (sending it). The caller's W3C
 * `traceparent` parents the request span. Each span is entered into the recorder's context, so the
 * log's wrapper parents its spans on the lane.
 */
export function installRequestTracing(fastify: FastifyInstance, recorder: SpanRecorder): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const span = recorder.startRequest(`${request.method} ${route}`, request.headers.traceparent, {
      'http.request.method': request.method,
      'http.route': route,
    });
    if (span === undefined) return done();
    (request as Traced)[SPANS] = { request: span };
    recorder.current.run(span, done);
  });
  fastify.addHook('preHandler', (request, _reply, done) => {
    const spans = (request as Traced)[SPANS];
    if (spans === undefined) return done();
    spans.lane = recorder.startChild(spans.request, `lane ${spans.request.attributes['http.route']}`);
    recorder.current.run(spans.lane, done);
  });
  fastify.addHook('onSend', (request, _reply, payload, done) => {
    const spans = (request as Traced)[SPANS];
    if (spans !== undefined && spans.reply === undefined) {
      spans.lane?.end();
      spans.reply = recorder.startChild(spans.request, 'reply');
    }
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const spans = (request as Traced)[SPANS];
    if (spans !== undefined) {
      const status = reply.statusCode;
      spans.request.attributes['http.response.status_code'] = status;
      spans.reply?.end();
      spans.lane?.end();
      spans.request.end(status >= 500 ? `HTTP ${status}` : undefined);
    }
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    const spans = (request as Traced)[SPANS];
    if (spans !== undefined) {
      for (const span of [spans.reply, spans.lane, spans.request]) span?.end('client closed the connection');
    }
    done();
  });
}
