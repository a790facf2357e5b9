import 'reflect-metadata';
import { logAlways } from './common/nest-logger';
import { checkedNodeOptions } from './config/node-options';

/**
 * `node dist/node-options.cli.js`: scripts/start.sh (npm start) and the container's start script run
 * this before the service. It prints the node options for the configuration on stdout, or the
 * service's own fatal line (naming the variable and what it accepts) and exits 1, so a bad value never
 * reaches node's command line.
 */
try {
  // eslint-disable-next-line no-restricted-properties -- the launcher reads what main.ts will read
  process.stdout.write(`${checkedNodeOptions(process.env).join(' ')}\n`);
} catch (error) {
  logAlways('fatal', { context: 'Main' }, error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
