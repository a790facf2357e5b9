import { FastifyInstance } from 'fastify';
import { Counter, Histogram } from 'prom-client';
import { refusalKind } from '../http/refusal-tags';
import { ServiceMetrics } from './service-metrics';
import { isWriteGetPath } from '../http/routes/route-table';
import { requestPath } from '../http/url/decode-path';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/**
 * Counts every reply by method, route template and status, with its latency by status class, in
 * Fastify's onResponse hook (a Nest interceptor would cost 40–80 % per request). Refusals are counted
 * by kind; a 2xx write (POST, or a GET that writes) counts as an acknowledged write. Requests in flight
 * are counted from onRequest to the reply's `close`, which Node emits whether the reply finished or
 * the client went away (onResponse does not run for an abandoned one).
 */
export function installRequestMetrics(fastify: FastifyInstance, metrics: ServiceMetrics): void {
  const settled = (): void => {
    metrics.inFlight--;
  };
  fastify.addHook('onRequest', (request, reply, done) => {
    metrics.inFlight++;
    reply.raw.once('close', settled);
    done();
  });
  // Routes map one to one to templates, so whether a GET template writes is decided once per template.
  const writeGets = new Map<string, boolean>();
  const isWrite = (method: string, route: string, url: string): boolean => {
    if (method === 'POST') return route.startsWith('/r/') || route.startsWith('/kv/');
    if (method !== 'GET') return false;
    let writes = writeGets.get(route);
    if (writes === undefined) writeGets.set(route, (writes = isWriteGetPath(requestPath(url))));
    return writes;
  };
  // prom-client hashes the label values on every `labels()` call; the series of one method, route
  // template and status are looked up once and kept (their number is bounded by the route table).
  const seriesByKey = new Map<string, { count: Counter.Internal; seconds: Histogram.Internal<string> }>();
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const key = `${request.method} ${route} ${status}`;
    let series = seriesByKey.get(key);
    if (series === undefined) {
      series = {
        count: metrics.requests.labels(request.method, route, String(status)),
        seconds: metrics.requestSeconds.labels(
          request.method,
          route,
          STATUS_CLASSES[Math.floor(status / 100) - 1],
        ),
      };
      seriesByKey.set(key, series);
    }
    series.count.inc();
    series.seconds.observe(reply.elapsedTime / 1000);
    const lifetime = metrics.lifetime;
    if (status >= 400) {
      const kind = refusalKind(request.raw, status);
      metrics.refusals.labels(String(status), kind).inc();
      if (status === 429) lifetime.rate_limited++;
      else if (kind === 'duplicate') lifetime.duplicate++;
    } else if (status < 300 && isWrite(request.method, route, request.url)) {
      metrics.writes.labels(route.startsWith('/kv') ? 'note' : 'message').inc();
      lifetime.write++;
    } else if (status < 300 && (route.startsWith('/r/') || route.startsWith('/kv/') || route === '/rooms')) {
      lifetime.read++;
      if (request.url.includes('wait=')) lifetime.followed++;
    }
    done();
  });
}
