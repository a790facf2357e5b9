import { rmSync } from 'node:fs';
import { stopSuiteNats } from './global-nats';
import { RUN_TMP_ENV } from './jest-global-setup';

/** Stops what jest-global-setup started (globals set there are visible here, in the same process). */
export default async function globalTeardown(): Promise<void> {
  const nats = (globalThis as { __suiteNats?: Parameters<typeof stopSuiteNats>[0] }).__suiteNats;
  if (nats) await stopSuiteNats(nats);
  const runTmp = process.env[RUN_TMP_ENV];
  if (runTmp) rmSync(runTmp, { recursive: true, force: true });
}
