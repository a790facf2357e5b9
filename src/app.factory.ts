import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LeanFastifyAdapter } from './http/lean-fastify.adapter';
import { AppModule, AppModuleOptions } from './app.module';
import { installCorsHooks, parseCorsOrigins } from './http/cors-hooks';
import { installHttpHooks } from './http/http-hooks';
import { parseQuery } from './http/url/query-parser';
import { rewriteUrl } from './http/url/decode-path';
import { NestLogger } from './common/nest-logger';

/**
 * Builds the application on Fastify with the reference's HTTP conventions: routing on the decoded
 * path, form-style last-wins query parsing, long free-form segments, no framework body parsing (POST
 * bodies are read by the routes after the guards), HEAD refused on the write GETs, browser CORS.
 */
export async function createApp(options: AppModuleOptions): Promise<NestFastifyApplication> {
  const adapter = new LeanFastifyAdapter({
    rewriteUrl: (req: { url?: string }) => rewriteUrl(req.url ?? '/'),
    routerOptions: {
      maxParamLength: 1 << 20,
      ignoreTrailingSlash: false,
      caseSensitive: true,
      querystringParser: parseQuery,
    },
    exposeHeadRoutes: true,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    logger: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    bodyParser: false,
    logger: new NestLogger(options.config.logLevel),
  });
  const fastify = app.getHttpAdapter().getInstance();
  installHttpHooks(fastify, options.config);
  installCorsHooks(fastify, parseCorsOrigins(options.config.corsOrigins));
  app.enableShutdownHooks();
  await app.init();
  return app;
}
