import { AppConfig } from './app-config';
import { assertHeapFits, SEMI_SPACE_MB, YOUNG_GENERATION_MB } from './heap-budget';
import { loadConfig } from './load-config';

const MIB = 1024 * 1024;

/**
 * The node options `npm start` runs the service with, from the validated configuration: the heap
 * limit (CHAT_HEAP_MB) and the young generation (heap-budget.ts says why 32 MiB).
 */
export function nodeOptions(config: Pick<AppConfig, 'heapMb'>): string[] {
  return [`--max-old-space-size=${config.heapMb}`, `--max-semi-space-size=${SEMI_SPACE_MB}`];
}

/**
 * Checks the environment as the service will (the same loadConfig, the same heap check against the
 * limit these options give V8) and returns the options; throws the ConfigError the service would.
 * Run before node is started with them: `--max-old-space-size=abc` is refused by node with a usage
 * message, and `=10` crashes V8 out of memory (exit 134) before the service can say why.
 */
export function checkedNodeOptions(env: Readonly<Record<string, string | undefined>>): string[] {
  const config = loadConfig(env);
  assertHeapFits(config, (config.heapMb + YOUNG_GENERATION_MB) * MIB);
  return nodeOptions(config);
}
