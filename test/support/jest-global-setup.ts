import { startSuiteNats, TEST_NATS_URL_ENV } from './global-nats';

/**
 * Runs once before the suite, in jest's parent process: starts the suite's private nats-server and
 * publishes its URL through the environment, which every test file (in band or in a worker) inherits.
 */
export default async function globalSetup(): Promise<void> {
  const nats = await startSuiteNats();
  process.env[TEST_NATS_URL_ENV] = nats.url;
  (globalThis as { __suiteNats?: unknown }).__suiteNats = nats;
}
