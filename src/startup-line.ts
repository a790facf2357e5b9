import { INestApplication } from '@nestjs/common';
import { BuildInfo } from './build-info';
import { AppConfig } from './config/app-config';
import { SERVICE_VERSION } from './docs/service-identity';
import { ProjectionRunner } from './projections/projection-runner';

/**
 * The quiet start-up's single line (issue 16): where the service listens and what it started from —
 * the interface version (`version`) and the build (`build`: package version and git commit, issue 25),
 * port, data directory, log backend, fsync policy and the replay figures (the checkpoint offset it
 * restored and how many records it replayed after it), plus the start-up time.
 */
export function startupLine(input: {
  readonly config: Readonly<AppConfig>;
  readonly url: string;
  readonly app: INestApplication;
  readonly build: BuildInfo;
  readonly ms: number;
}): { msg: string; fields: Record<string, unknown> } {
  const { config, url, app } = input;
  const replay = app.get(ProjectionRunner, { strict: false }).startReplay;
  return {
    msg: `listening on ${url}`,
    fields: {
      context: 'Main',
      version: SERVICE_VERSION,
      build: input.build,
      port: Number(new URL(url).port),
      root: config.root,
      backend: config.logBackend,
      fsync: config.fsync,
      replay: { checkpoint: replay?.fromOffset ?? 0, replayed: replay?.replayed ?? 0 },
      metrics: config.metricsPort === '' ? null : `${config.metricsHost}:${config.metricsPort}`,
      startMs: Math.round(input.ms),
    },
  };
}
