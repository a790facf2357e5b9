import { Provider, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { RateLimitGuard } from './rate-limit.guard';

/**
 * Every global guard, in the order Nest runs them — the one place that order is set (pinned by
 * test/unit/access/global-guards.spec.ts). The rate token comes first because every lane's table in
 * contract §12 starts with it. Everything else a lane checks (write gate, duplicate filter, wait slots)
 * needs the route's parsed input and runs inside the lane services; the 431 header check runs earlier
 * still, as a Fastify onRequest hook.
 */
export const GLOBAL_GUARDS: readonly Type[] = [RateLimitGuard];

/** The APP_GUARD providers for the composition root, in GLOBAL_GUARDS order. */
export function globalGuardProviders(): Provider[] {
  return GLOBAL_GUARDS.map((guard) => ({ provide: APP_GUARD, useClass: guard }));
}
