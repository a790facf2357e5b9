import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { getHeapStatistics } from 'node:v8';
import { assertHeapFits } from './config/heap-budget';
import { loadConfig } from './config/load-config';
import { boundShutdown } from './shutdown-grace';

async function bootstrap(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- the one place the environment is read
  const config = loadConfig(process.env);
  const heapWarning = assertHeapFits(config, getHeapStatistics().heap_size_limit);
  if (heapWarning !== undefined) new Logger('Main').warn(heapWarning);
  const app = await createApp({ config });
  boundShutdown(app, config.shutdownGraceMs);
  await app.listen({ port: config.port, host: config.host });
  new Logger('Main').log(`listening on ${await app.getUrl()} (data in ${config.root})`);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
