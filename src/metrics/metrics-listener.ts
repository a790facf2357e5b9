import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { ServiceMetrics } from './service-metrics';
import { listenNamingKnobs } from '../common/listen-error';

const METRICS_KNOBS = { port: 'CHAT_METRICS_PORT', host: 'CHAT_METRICS_HOST' };

/**
 * Serves `GET /metrics` (Prometheus text format) on its own listener, CHAT_METRICS_HOST:CHAT_METRICS_PORT
 * (loopback by default), never on the public port: metrics describe the deployment, not the rooms.
 * Off unless CHAT_METRICS_PORT is set; with CHAT_METRICS_TOKEN a scrape must send
 * `Authorization: Bearer <token>` (for a listener that is not on loopback).
 */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: ServiceMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.metricsPort === '') return;
    const server = createServer((req, res) => void this.answer(req, res));
    const wanted = { host: this.config.metricsHost, port: Number(this.config.metricsPort) };
    await listenNamingKnobs(METRICS_KNOBS, wanted, () => {
      return new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(wanted.port, wanted.host, resolve);
      });
    });
    this.server = server;
    const { address, port } = server.address() as AddressInfo;
    this.logger.log(`metrics on http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 only GET /metrics is served here\n');
      return;
    }
    if (!this.authorised(req.headers.authorization)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('401\n');
      return;
    }
    const body = await this.metrics.registry.metrics();
    res.writeHead(200, { 'content-type': this.metrics.registry.contentType, 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private authorised(header: string | undefined): boolean {
    const token = this.config.metricsToken;
    if (token === '') return true;
    const expected = Buffer.from(`Bearer ${token}`);
    const given = Buffer.from(header ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
