import { stopSuiteNats } from './global-nats';

/** Stops what jest-global-setup started (globals set there are visible here, in the same process). */
export default async function globalTeardown(): Promise<void> {
  const nats = (globalThis as { __suiteNats?: Parameters<typeof stopSuiteNats>[0] }).__suiteNats;
  if (nats) await stopSuiteNats(nats);
}
