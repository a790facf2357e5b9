import 'reflect-metadata';
import { getHeapStatistics } from 'node:v8';
import { logAlways, NestLogger, processLogger } from './common/nest-logger';
import { assertHeapFits } from './config/heap-budget';
import { loadConfig } from './config/load-config';
import { boundShutdown } from './shutdown-grace';
import { DataDirLock } from './storage/data-dir-lock';
import { startupLine } from './startup-line';
import { openStartupProbe } from './startup-probe';

async function bootstrap(): Promise<void> {
  const started = performance.now();
  // eslint-disable-next-line no-restricted-properties -- the one place the environment is read
  const config = loadConfig(process.env);
  const logger = new NestLogger(processLogger(config.logLevel));
  const heapWarning = assertHeapFits(config, getHeapStatistics().heap_size_limit);
  if (heapWarning !== undefined) logger.warn(heapWarning, 'Main');
  // Before anything opens the log: a second owner of the directory would overwrite acknowledged writes.
  await DataDirLock.acquire(config.root);
  // A nats node may restore a snapshot and replay for a while: its port answers /readyz 503 meanwhile.
  const probe = config.logBackend === 'nats' ? await openStartupProbe(config.host, config.port) : undefined;
  if (probe)
    logger.log(
      `starting: /readyz answers 503 on port ${probe.port} until the read models are restored`,
      'Main',
    );
  // Loaded only once the directory is ours (about a second of module loading): a refused second
  // process exits at once.
  const { createApp } = await import('./app.factory');
  const app = await createApp({ config }, logger).finally(() => probe?.close());
  boundShutdown(app, config.shutdownGraceMs);
  await app.listen({ port: probe?.port ?? config.port, host: config.host });
  logger.markStarted();
  // The one start-up line (tests and the bench wait for its `listening on <url>`); written even at
  // warn/error levels, because an operator must always be able to see where the service listens.
  const line = startupLine({ config, url: await app.getUrl(), app, ms: performance.now() - started });
  logAlways('info', line.fields, line.msg);
}

bootstrap().catch((error: unknown) => {
  // Configuration errors arrive before the level is known: they are logged at the default level.
  logAlways('fatal', { context: 'Main' }, error instanceof Error ? error.message : String(error));
  process.exit(1);
});
