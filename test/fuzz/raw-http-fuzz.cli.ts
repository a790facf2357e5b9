import { AddressInfo } from 'node:net';
import { numberArg } from '../support/cli-args';
import { TestApp } from '../support/test-app';
import { runRawHttpFuzz } from './raw-http-fuzz';

/**
 * The long raw-socket run (issue 24 item 8):
 *
 *   npm run fuzz:raw-http -- [--cases 50000] [--seed 20261127] [--concurrency 16]
 *
 * Starts the application on a loopback port, prints one JSON line of figures; exits 1 on any reply
 * that breaks the error doctrine or any case closed without a reply.
 */

void (async () => {
  const t = await TestApp.start({ requestTimeoutSeconds: 2, headersTimeoutSeconds: 1, fsync: 'none' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.getHttpServer() as { address(): AddressInfo }).address().port}`;
  const figures = await runRawHttpFuzz({
    url,
    cases: numberArg('cases', 50_000),
    seed: numberArg('seed', 20_261_127),
    concurrency: numberArg('concurrency', 16),
  });
  await t.close();
  console.log(
    JSON.stringify({ ...figures, silent: figures.silent.length, breaches: figures.breaches.slice(0, 20) }),
  );
  process.exit(figures.breaches.length === 0 && figures.silent.length === 0 ? 0 : 1);
})();
