import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.factory';
import { Clock } from '../../src/common/clock';
import { AppConfig } from '../../src/config/app-config';
import { buildConfig } from '../../src/config/load-config';

/**
 * Defaults under every test's overrides: silent logs, and budgets far beyond what a suite spends, so
 * suites that are not about rate limits are not limited. Guard suites set the numbers they test.
 */
const TEST_DEFAULTS: Partial<AppConfig> = {
  logLevel: 'silent',
  rateRead: 1_000_000,
  rateWrite: 1_000_000,
  rateRoomsPerDay: 1_000_000,
};

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | number | undefined>;
  readonly body: string;
  readonly rawPayload: Buffer;
}

/**
 * A real application (the whole module graph, the real segmented log on a temp directory) driven
 * through Fastify inject. `restart()` closes it gracefully and opens a new one on the same directory.
 */
export class TestApp {
  private constructor(
    public app: NestFastifyApplication,
    readonly root: string,
    private readonly overrides: Partial<AppConfig>,
    private readonly clock?: Clock,
  ) {}

  static async start(overrides: Partial<AppConfig> = {}, clock?: Clock, root?: string): Promise<TestApp> {
    const dir = root ?? mkdtempSync(join(tmpdir(), 'agent-chat-'));
    const app = await createApp({
      config: buildConfig({ ...TEST_DEFAULTS, ...overrides, root: dir }),
      clock,
    });
    return new TestApp(app, dir, overrides, clock);
  }

  /** Listens on a kernel-chosen loopback port; returns `http://127.0.0.1:<port>`. */
  async listen(): Promise<string> {
    await this.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = this.app.getHttpServer().address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  get<T>(type: abstract new (...args: never[]) => T): T {
    return this.app.get(type as never, { strict: false }) as T;
  }

  async request(
    method: string,
    url: string,
    payload?: string | Buffer,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const response = await this.app.inject({ method: method as 'GET', url, payload, headers });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
      rawPayload: response.rawPayload,
    };
  }

  getPath(url: string): Promise<Reply> {
    return this.request('GET', url);
  }

  post(url: string, body: unknown): Promise<Reply> {
    return this.request('POST', url, typeof body === 'string' ? body : JSON.stringify(body), {
      'content-type': 'application/json',
    });
  }

  async restart(): Promise<void> {
    await this.app.close();
    const config = buildConfig({ ...TEST_DEFAULTS, ...this.overrides, root: this.root });
    this.app = await createApp({ config, clock: this.clock });
  }

  async close(options: { keepData?: boolean } = {}): Promise<void> {
    await this.app.close();
    if (!options.keepData) rmSync(this.root, { recursive: true, force: true });
  }
}

/** The JSON body of a reply, typed loosely for assertions. */
export function json(reply: Reply): Record<string, unknown> {
  return JSON.parse(reply.body) as Record<string, unknown>;
}
