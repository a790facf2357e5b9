import { existsSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import { makeTempDir } from '../../support/temp-dir';
import { ServiceProcess } from '../../support/service-process';

/** Every non-empty line of the output, parsed (the service writes JSON lines only). */
function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A loopback port held by this test process, so the service finds it taken. */
async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/**
 * Issue 25 item 2: a start that cannot go on says why in one fatal line naming the variable, and exits
 * 1 — never a bare `listen EADDRINUSE`, never a value accepted silently to fail later.
 */
describe('a refused start', () => {
  // Made in beforeAll, not at load: a run filtered with -t skips the hooks of a block it skips.
  let dir: ReturnType<typeof makeTempDir>;
  beforeAll(() => (dir = makeTempDir('agent-chat-refusals')));
  afterAll(() => dir.remove());

  /** The refusal's one line (a heap warning may precede it: node runs without npm start's flags here). */
  async function refusal(env: Record<string, string>): Promise<string> {
    const run = await ServiceProcess.refusedStart({ CHAT_ROOT: join(dir.path, 'data'), ...env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    const lines = jsonLines(run.stdout).filter((line) => line.level !== 'warn');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'fatal', context: 'Main' });
    return lines[0].msg as string;
  }

  for (const knobs of [
    { port: 'PORT', host: 'HOST' },
    { port: 'CHAT_METRICS_PORT', host: 'CHAT_METRICS_HOST' },
  ]) {
    it(`a port in use names ${knobs.port}, ${knobs.host} and the address, in one line`, async () => {
      const held = await holdPort();
      try {
        expect(await refusal({ [knobs.port]: String(held.port) })).toBe(
          `cannot listen on 127.0.0.1:${held.port} (${knobs.port}=${held.port}, ${knobs.host}=127.0.0.1): ` +
            `the address is already in use: stop the process holding it, or set another ${knobs.port}`,
        );
      } finally {
        held.server.close();
      }
    }, 120_000);
  }

  it('refuses a public URL, CORS origins and NATS servers of the wrong shape, each named', async () => {
    const msg = await refusal({
      CHAT_PUBLIC_URL: 'notaurl',
      CHAT_CORS_ORIGINS: 'https://app.example/',
      CHAT_NATS_URL: 'http://nats:4222',
    });
    expect(msg).toMatch(/^invalid configuration: /);
    expect(msg).toContain('CHAT_PUBLIC_URL=notaurl: must be an absolute http:// or https:// URL');
    expect(msg).toContain('CHAT_CORS_ORIGINS=https://app.example/: must be comma-separated origins');
    expect(msg).toContain('CHAT_NATS_URL=http://nats:4222: must be comma-separated NATS servers');
  }, 120_000);

  it('refuses a service key file that is missing or holds no seed, naming CHAT_SERVICE_KEY_FILE (issue 29)', async () => {
    const missing = join(dir.path, 'no-such-key');
    expect(await refusal({ CHAT_SERVICE_KEY_FILE: missing })).toBe(
      `CHAT_SERVICE_KEY_FILE=${missing}: no such file (write the seed line of npm run keygen into it)`,
    );
    const bad = join(dir.path, 'bad-key');
    writeFileSync(bad, 'not a seed\n');
    expect(await refusal({ CHAT_SERVICE_KEY_FILE: bad })).toBe(
      `service key file ${bad} (CHAT_SERVICE_KEY_FILE) does not hold a seed of 64 hex digits`,
    );
  }, 240_000);
});

describe('a graceful stop', () => {
  // Made in beforeAll, not at load: a run filtered with -t skips the hooks of a block it skips.
  let dir: ReturnType<typeof makeTempDir>;
  beforeAll(() => (dir = makeTempDir('agent-chat-graceful')));
  afterAll(() => dir.remove());

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`on ${signal} exits 0 (a supervisor reads 143 or 130 as a crash)`, async () => {
      const root = join(dir.path, signal);
      const service = await ServiceProcess.start({ CHAT_ROOT: root });
      expect((await fetch(service.url('/r/stop/say/a/hello'))).status).toBe(200);
      expect(existsSync(join(root, 'LOCK'))).toBe(true);
      expect(await service.stop(signal)).toEqual({ code: 0, signal: null });
      // process.exit runs the exit hooks: the lock file goes with the process (docs/decisions.md).
      expect(existsSync(join(root, 'LOCK'))).toBe(false);
    }, 120_000);
  }
});
