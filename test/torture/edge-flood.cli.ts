import { numberArg } from '../support/cli-args';
import { runConnectionFlood, runSlowReaders } from './edge-flood';

/**
 * The long edge runs (issue 24 items 6 and 7), against the real service process:
 *
 *   npm run test:edge-flood -- [--connections 18000] [--addresses 100] [--open-files 16384]
 *                              [--probes 25] [--seconds 50] [--readers 64] [--deadline 30]
 *
 * First a flood of idle connections and newcomer probes, then clients that never read. Prints
 * progress and one JSON line of figures; exits 1 if a newcomer was refused or the unread replies'
 * kernel buffers were still held after the deadline. The npm script raises `ulimit -n` to the hard
 * limit first: this process holds every flood connection, the service holds its share of them.
 */

void (async () => {
  const log = (line: string): void => console.error(line);
  const connections = await runConnectionFlood({
    connections: numberArg('connections', 18_000),
    addresses: numberArg('addresses', 100),
    openFiles: numberArg('open-files', 16_384),
    probes: numberArg('probes', 25),
    seconds: numberArg('seconds', 50),
    log,
  });
  const slowReaders = await runSlowReaders({
    readers: numberArg('readers', 64),
    deadlineSeconds: numberArg('deadline', 30),
    log,
  });
  console.log(JSON.stringify({ connections, slowReaders }));
  const newcomersServed =
    connections.healthOk === connections.probes && connections.writeOk === connections.probes;
  process.exit(newcomersServed && slowReaders.finalQueuedMiB < 1 ? 0 : 1);
})();
