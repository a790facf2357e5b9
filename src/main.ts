import 'reflect-metadata';
import { AddressInfo } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import { readBuildInfo } from './build-info';
import { listenNamingKnobs } from './common/listen-error';
import { logAlways, NestLogger, processLogger } from './common/nest-logger';
import { assertHeapFits } from './config/heap-budget';
import { loadConfig } from './config/load-config';
import { boundShutdown } from './shutdown-grace';
import { DataDirLock } from './storage/data-dir-lock';
import { loadServiceKey } from './identity/service-key-file';
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
  // Read (or made) before the app: a missing or malformed key file is one fatal line, not Nest's error.
  loadServiceKey(config);
  const address = { host: config.host, port: config.port };
  // A nats node may restore a snapshot and replay for a while: its port answers /readyz 503 meanwhile.
  const probe =
    config.logBackend === 'nats'
      ? await listenNamingKnobs({ port: 'PORT', host: 'HOST' }, address, () =>
          openStartupProbe(config.host, config.port),
        )
      : undefined;
  if (probe)
    logger.log(
      `starting: /readyz answers 503 on port ${probe.port} until the read models are restored`,
      'Main',
    );
  // Loaded only once the directory is ours (about a second of module loading): a refused second
  // process exits at once.
  const { createApp } = await import('./app.factory');
  const app = await createApp({ config }, logger).finally(() => probe?.close());
  // A graceful stop (SIGTERM, SIGINT) closes the app and exits 0: Nest's default re-raises the signal,
  // which a supervisor reads as a crash (exit 143 or 130).
  app.enableShutdownHooks([], { useProcessExit: true });
  boundShutdown(app, config.shutdownGraceMs);
  // Fastify's own listen, not Nest's: Nest logs a failure as an error line of its own before
  // rethrowing it, and a clash must be the one fatal line naming PORT and HOST. A probe's port (the
  // kernel's pick when PORT=0) is the one the service takes over.
  const serviceAddress = { host: config.host, port: probe?.port ?? config.port };
  await listenNamingKnobs({ port: 'PORT', host: 'HOST' }, serviceAddress, () =>
    app.getHttpAdapter().getInstance().listen(serviceAddress),
  );
  logger.markStarted();
  // The one start-up line (tests and the bench wait for its `listening on <url>`); written even at
  // warn/error levels, because an operator must always be able to see where the service listens.
  const url = listeningUrl(app.getHttpServer().address() as AddressInfo);
  const build = readBuildInfo();
  const line = startupLine({ config, url, app, build, ms: performance.now() - started });
  logAlways('info', line.fields, line.msg);
}

/** The URL a client on this machine reaches the listener at (a wildcard bind through loopback). */
function listeningUrl({ address, family, port }: AddressInfo): string {
  if (family === 'IPv6') return `http://[${address === '::' ? '::1' : address}]:${port}`;
  return `http://${address === '0.0.0.0' ? '127.0.0.1' : address}:${port}`;
}

bootstrap().catch((error: unknown) => {
  // Configuration errors arrive before the level is known: they are logged at the default level.
  logAlways('fatal', { context: 'Main' }, error instanceof Error ? error.message : String(error));
  process.exit(1);
});
