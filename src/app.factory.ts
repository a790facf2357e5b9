import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LeanFastifyAdapter } from './http/lean-fastify.adapter';
import { AppModule, AppModuleOptions } from './app.module';
import { installCorsHooks, parseCorsOrigins } from './http/cors-hooks';
import { installHttpHooks } from './http/http-hooks';
import { parseQuery } from './http/url/query-parser';
import { rewriteUrl } from './http/url/decode-path';
import { createPino, NestLogger } from './common/nest-logger';
import { installRequestLog } from './http/request-log.hook';
import { effectiveMaxConnections } from './http/connections/connection-limits';
import { ConnectionGovernor } from './http/connections/connection-governor';
import { serverTimeouts } from './http/server-timeouts';
import { clientErrorHandler, installNodeRefusals } from './http/refusals/low-level-refusals';
import { ServiceMetrics } from './metrics/service-metrics';
import { installRequestMetrics } from './metrics/request-metrics.hook';
import { attachMetricSources } from './metrics/metric-sources';
import { installRequestTracing } from './tracing/request-tracing.hook';
import { SpanRecorder } from './tracing/span-recorder';
import { SPAN_RECORDER } from './tracing/tracing.module';

/**
 * Builds the application on Fastify with the reference's HTTP conventions: routing on the decoded
 * path, form-style last-wins query parsing, long free-form segments, no framework body parsing (POST
 * bodies are read by the routes after the guards), HEAD refused on the write GETs, browser CORS.
 */
export async function createApp(
  options: AppModuleOptions,
  /** main.ts passes the process's logger (it ends the quiet start-up); tests get one at their level. */
  logger: NestLogger = new NestLogger(createPino(options.config.logLevel)),
): Promise<NestFastifyApplication> {
  const adapter = new LeanFastifyAdapter({
    rewriteUrl: (req: { url?: string }) => rewriteUrl(req.url ?? '/'),
    routerOptions: {
      maxParamLength: 1 << 20,
      ignoreTrailingSlash: false,
      caseSensitive: true,
      querystringParser: parseQuery,
    },
    exposeHeadRoutes: true,
    // Closing and parser refusals are answered in this service's text/plain (issue 24 item 8): the
    // 503 by the onRequest hook (installHttpHooks), the parser's by clientErrorHandler.
    return503OnClosing: false,
    clientErrorHandler: clientErrorHandler(options.config),
    forceCloseConnections: 'idle',
    logger: false,
    ...serverTimeouts(options.config),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    bodyParser: false,
    logger,
  });
  const fastify = app.getHttpAdapter().getInstance();
  installHttpHooks(fastify, options.config);
  installNodeRefusals(fastify.server);
  installCorsHooks(fastify, parseCorsOrigins(options.config.corsOrigins));
  installRequestLog(fastify, options.config.logLevel, options.config.requestLogSample);
  // Per-request counting costs ~1–3 µs a request: paid only where metrics or /stats are enabled.
  if (options.config.metricsPort !== '' || options.config.statsToken !== '') {
    installRequestMetrics(fastify, app.get(ServiceMetrics));
  }
  // Traces (CHAT_OTLP_ENDPOINT): the request hooks exist only when tracing is on.
  const spans = app.get<SpanRecorder | null>(SPAN_RECORDER);
  if (spans !== null) installRequestTracing(fastify, spans);
  ConnectionGovernor.install(fastify.server, {
    maxConnections: effectiveMaxConnections(options.config.maxConnections),
    // Behind a proxy (CHAT_CLIENT_IP_HEADER set) every connection comes from the proxy: no per-peer cap.
    maxConnectionsPerClient:
      options.config.clientIpHeader === '' ? options.config.maxConnectionsPerClient : Infinity,
    maxPipelined: options.config.maxPipelined,
    sendDeadlineSeconds: options.config.sendDeadlineSeconds,
  });
  await app.init();
  attachMetricSources(app);
  return app;
}
