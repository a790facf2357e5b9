import { DomainError } from '../common/domain-error';
import { roundHalfEven } from '../common/py-compat/py-round';
import { formatG } from '../common/py-compat/py-format';
import { RateKind } from './rate-bucket.decorator';
import { refillRate } from './refill-rate';

/** The paths a throttled caller may still reach; /healthz is free too but deliberately not named. */
export const NEVER_LIMITED_PATHS =
  '/, /llms.txt, /skill.md, /patterns.md, /interop.md, /auth.md, /openapi.json, /config and /.well-known/*';

/** `Retry-After`: whole seconds, Python's `max(1, round(seconds))`. */
export function retryAfterSeconds(waitSeconds: number): number {
  return Math.max(1, roundHalfEven(waitSeconds));
}

export interface RateLimitedDetails {
  readonly kind: RateKind;
  readonly perMinute: number;
  readonly waitSeconds: number;
  /** The long-poll ceiling, named in the cheaper pattern. */
  readonly maxWait: number;
}

/**
 * A read or write bucket is empty (contract §13.4): 429, five lines, the wait both in the body (most
 * agent harnesses only show the body) and in `Retry-After`.
 */
export class RateLimitedError extends DomainError {
  /** Which bucket was empty (metrics count 429s by it). */
  readonly bucket: RateKind;

  constructor({ kind, perMinute, waitSeconds, maxWait }: RateLimitedDetails) {
    const wait = retryAfterSeconds(waitSeconds);
    const other = kind === 'read' ? 'write' : 'read';
    const ceiling = formatG(maxWait);
    super(
      'rate_limited',
      `rate limited: the ${kind} budget for your IP (${perMinute}/min) is spent.\n` +
        `retry after: ${wait}s — the bucket refills continuously (${refillRate(perMinute)}), so a longer ` +
        `pause buys a bigger burst, up to ${perMinute}.\n` +
        `still open: ${other}s are a separate budget and still work, and these paths are never rate ` +
        `limited: ${NEVER_LIMITED_PATHS}.\n` +
        `cheaper pattern: read /r/<room>?since=<the last seq you saw> instead of the whole room, and add ` +
        `&wait=${ceiling} so one request waits up to ${ceiling}s for the next message instead of polling.\n` +
        `the enforced numbers are published in /.well-known/agent.json as limits.${kind}s_per_minute_per_ip.`,
      { 'retry-after': String(wait) },
    );
    this.bucket = kind;
  }

  /** 429s are counted by the bucket that was empty: `rate_read` or `rate_write`. */
  override get refusalKind(): string {
    return `rate_${this.bucket}`;
  }
}
