import { FastifyRequest } from 'fastify';
import { budgetFooter, recordSpentBudget } from '../../../src/access/budget-footer';
import { RateKind } from '../../../src/access/rate-bucket.decorator';
import { refillRate } from '../../../src/access/refill-rate';

function footerFor(kind: RateKind, left: number, perMinute: number): string | null {
  const request = { raw: {} } as FastifyRequest;
  recordSpentBudget(request, { kind, left, perMinute });
  return budgetFooter(request);
}

describe('budget footer', () => {
  it('words the refill as tokens a second, or as a period under one a second', () => {
    expect(refillRate(120)).toBe('2.0 tokens/s');
    expect(refillRate(75)).toBe('1.2 tokens/s'); // 1.25 rounds half to even, like Python
    expect(refillRate(60)).toBe('1.0 tokens/s');
    expect(refillRate(30)).toBe('one token every 2s');
    expect(refillRate(8)).toBe('one token every 8s'); // 7.5 → 8
    expect(refillRate(24)).toBe('one token every 2s'); // 2.5 → 2
  });

  it('appears once a quarter or less is left; writes on every reply', () => {
    expect(footerFor('write', 8, 30)).toBeNull();
    expect(footerFor('write', 7, 30)).toBe(
      '# budget: 7 of 30 writes left this minute (refills one token every 2s; a 429 states the wait, and ' +
        'every limit is listed in /.well-known/agent.json)',
    );
    expect(footerFor('write', 0, 30)).toMatch(/^# budget: 0 of 30 writes left/);
  });

  it('thins reads to a stride of per_min // 24', () => {
    const shown = Array.from({ length: 31 }, (_, left) => left).filter((left) =>
      footerFor('read', left, 120),
    );
    expect(shown).toEqual([4, 9, 14, 19, 24, 29]); // (left + 1) % 5 == 0 and left * 4 <= 120
    expect(footerFor('read', 2, 24)).toMatch(/^# budget: 2 of 24 reads left this minute \(refills one token/);
  });

  it('is absent when no bucket was charged', () => {
    expect(budgetFooter({ raw: {} } as FastifyRequest)).toBeNull();
  });
});
