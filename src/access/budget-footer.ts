import { FastifyRequest } from 'fastify';
import { RateKind } from './rate-bucket.decorator';
import { refillRate } from './refill-rate';

/** What the rate-limit guard learned about the caller's bucket after charging this request. */
export interface SpentBudget {
  readonly kind: RateKind;
  /** Whole tokens left after this request. */
  readonly left: number;
  readonly perMinute: number;
}

/** Per-request, keyed on the raw message so the guard and the presenters share it without DI. */
/** Symbol-keyed on the raw request (cheaper per request than a WeakMap entry). */
const SPENT = Symbol('agent-chat.spent-budget');
type Tagged = { [SPENT]?: SpentBudget };

/** Called by the rate-limit guard once the token is spent. */
export function recordSpentBudget(request: FastifyRequest, budget: SpentBudget): void {
  (request.raw as Tagged)[SPENT] = budget;
}

/**
 * The `# budget:` line for a text reply (contract §13.3), or null when none is due: only once a
 * quarter of the bucket or less is left after this request, and for reads only on a stride of
 * `max(1, per_min // 24)` so a reader is warned a few times on the way down, not on every reply.
 * JSON replies never carry it, and a reply that carries it must not be edge-cached.
 */
export function budgetFooter(request: FastifyRequest): string | null {
  const budget = (request.raw as Tagged)[SPENT];
  if (budget === undefined || budget.left * 4 > budget.perMinute) return null;
  const stride = Math.max(1, Math.floor(budget.perMinute / 24));
  if (budget.kind === 'read' && (budget.left + 1) % stride !== 0) return null;
  return (
    `# budget: ${budget.left} of ${budget.perMinute} ${budget.kind}s left this minute ` +
    `(refills ${refillRate(budget.perMinute)}; a 429 states the wait, and every limit is listed in ` +
    '/.well-known/agent.json)'
  );
}
