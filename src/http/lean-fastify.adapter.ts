import { FastifyAdapter } from '@nestjs/platform-fastify';

/** The part of FastifyAdapter's non-public state this class reads (pinned by lean-fastify.adapter.spec). */
interface AdapterInternals {
  readonly pendingMiddlewares?: readonly unknown[];
}

/**
 * NestJS's Fastify adapter registers @fastify/middie at init so Express-style middleware can run;
 * its onRequest hook then runs on every request. This service has no middleware (policy lives in
 * guards and Fastify hooks), so the registration is skipped: one hook less on the hot path. Should a
 * module ever add middleware, Nest registers middie on demand (createMiddlewareFactory); and should
 * anything call `app.use()` before init (Nest queues those calls), init runs as usual so they are
 * not dropped. test/unit/http/lean-fastify.adapter.spec.ts pins each of these Nest behaviours.
 */
export class LeanFastifyAdapter extends FastifyAdapter {
  override async init(): Promise<void> {
    const queued = (this as unknown as AdapterInternals).pendingMiddlewares ?? [];
    if (queued.length > 0) await super.init();
  }
}
