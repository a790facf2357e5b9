import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSuiteNats, TEST_NATS_URL_ENV } from './global-nats';

/** Names the run's private temp directory for the teardown (same process). */
export const RUN_TMP_ENV = 'AGENT_CHAT_TEST_RUN_TMP';
/** Where test/support/ts-register.js keeps what it transpiled, shared by every process of the run. */
const TS_CACHE_ENV = 'AGENT_CHAT_TS_CACHE';

/**
 * Runs once before the suite, in jest's parent process. Everything the run creates in the temp
 * directory goes under one private directory (TMPDIR, which os.tmpdir(), every test file and every
 * process a test starts inherit), removed by the teardown: a test that forgets its directory, or one
 * cut short by a timeout, leaves nothing behind. The service processes tests start share one
 * transpile cache there (a cold start costs seconds of CPU). Then starts the suite's private
 * nats-server and publishes its URL through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const runTmp = mkdtempSync(join(tmpdir(), 'agent-chat-run-'));
  process.env[RUN_TMP_ENV] = runTmp;
  process.env.TMPDIR = runTmp;
  process.env[TS_CACHE_ENV] = join(runTmp, 'ts-cache');
  const nats = await startSuiteNats();
  process.env[TEST_NATS_URL_ENV] = nats.url;
  (globalThis as { __suiteNats?: unknown }).__suiteNats = nats;
}
