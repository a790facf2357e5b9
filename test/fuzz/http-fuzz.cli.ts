import { numberArg } from '../support/cli-args';
import { runHttpFuzz } from './http-fuzz';

/**
 * The long hostile-input run (issue 11 item 6):
 *
 *   npm run fuzz:http -- [--requests 1000000] [--seed 20261124]
 *
 * Prints progress every 50,000 requests and one JSON line of figures at the end; exits 1 on any 5xx
 * or invariant breach (docs/operations.md records the last figures).
 */

void (async () => {
  const figures = await runHttpFuzz({
    requests: numberArg('requests', 1_000_000),
    seed: numberArg('seed', 20_261_124),
    progress: { every: 50_000, report: (done) => console.error(`… ${done} requests`) },
  });
  console.log(JSON.stringify(figures));
  process.exit(
    figures.serverErrors === 0 && figures.breaches.length === 0 && !figures.firstServerError ? 0 : 1,
  );
})();
