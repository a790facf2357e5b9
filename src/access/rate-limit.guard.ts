import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { clientOf } from '../http/client-identity';
import { recordSpentBudget } from './budget-footer';
import { RATE_BUCKET, RateKind } from './rate-bucket.decorator';
import { RateBuckets } from './rate-buckets.service';
import { RateLimitedError } from './rate-limited.error';

/**
 * Spends one token of the bucket a route declares with @RateBucket, before the handler runs — so
 * before a POST body is read, and a 408/413/400 body still costs its token (contract §8.7). Routes
 * without the metadata pass untouched. The tokens left are recorded on the request for the
 * `# budget:` footer the presenters render.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly buckets: RateBuckets,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Route metadata never changes after boot: read it once per handler, not once per request. */
  private readonly kinds = new WeakMap<object, RateKind | null>();

  canActivate(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let kind = this.kinds.get(handler);
    if (kind === undefined) {
      kind =
        this.reflector.getAllAndOverride<RateKind | undefined>(RATE_BUCKET, [handler, context.getClass()]) ??
        null;
      this.kinds.set(handler, kind);
    }
    if (kind === null) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const take = this.buckets.take(kind, clientOf(request));
    const perMinute = this.buckets.perMinute(kind);
    if (!take.granted) {
      throw new RateLimitedError({
        kind,
        perMinute,
        waitSeconds: take.waitSeconds,
        maxWait: this.config.maxWait,
      });
    }
    recordSpentBudget(request, { kind, left: take.left, perMinute });
    return true;
  }
}
