import { numberArg } from '../support/cli-args';
import { runCrashTorture } from './crash-torture';

/**
 * The long crash run (issue 11 item 6):
 *
 *   npm run test:crash-long -- [--kills 100] [--seed 11] [--max-load-ms 1500]
 *
 * Builds first (the script does), starts dist/main.js, and prints one line per kill and one JSON line
 * of figures at the end; exits 1 if any acknowledged write was lost or any export was invalid.
 */

void (async () => {
  const figures = await runCrashTorture({
    kills: numberArg('kills', 100),
    seed: numberArg('seed', 11),
    maxLoadMs: numberArg('max-load-ms', 1500),
    entry: 'dist',
    log: (line) => console.error(line),
  });
  console.log(JSON.stringify(figures));
  process.exit(figures.lost === 0 && figures.invalidExports === 0 ? 0 : 1);
})();
