import { runHttpFuzz } from '../../fuzz/http-fuzz';

/** The CI form of the hostile-input run (issue 11 item 6); the 1,000,000-request form is `npm run fuzz:http`. */
const SEED = 20_261_124;
const REQUESTS = 20_000;

describe('property-based HTTP fuzzing (fast-check, fixed seed)', () => {
  it(`answers ${REQUESTS} hostile requests without a 5xx, a crash, a stray file or a bad record`, async () => {
    const figures = await runHttpFuzz({ requests: REQUESTS, seed: SEED });
    expect(figures.firstServerError).toBeUndefined();
    expect(figures.serverErrors).toBe(0);
    expect(figures.requests).toBe(REQUESTS);
    expect(figures.breaches).toEqual([]);
    // The run reached past the edge: writes were accepted and refusals of every kind were given.
    for (const status of [200, 400, 404]) expect(figures.statuses[status]).toBeGreaterThan(100);
  }, 120_000);
});
