import { SetMetadata } from '@nestjs/common';

/** Which per-client token bucket a route spends one token from (contract §13.1). */
export type RateKind = 'read' | 'write';

export const RATE_BUCKET = 'agent-chat:rate-bucket';

/**
 * Declares a route's rate bucket. The rate-limit guard reads it; routes without it (documents,
 * /healthz, 404s, 405s) are never limited.
 */
export const RateBucket = (kind: RateKind): MethodDecorator & ClassDecorator =>
  SetMetadata(RATE_BUCKET, kind);
