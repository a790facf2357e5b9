import { FastifyAdapter } from '@nestjs/platform-fastify';

/**
 * NestJS's Fastify adapter registers @fastify/middie at init so Express-style middleware can run;
 * its onRequest hook then runs on every request. This service has no middleware (policy lives in
 * guards and Fastify hooks), so the registration is skipped: one hook less on the hot path. Should a
 * module ever add middleware, Nest registers middie on demand (createMiddlewareFactory).
 */
export class LeanFastifyAdapter extends FastifyAdapter {
  override async init(): Promise<void> {
    // deliberately nothing: see the class comment
  }
}
