import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { makeTempDir } from '../../support/temp-dir';
import { stopProcess } from '../../support/listening-process';

const ROOT = join(__dirname, '..', '..', '..');
const TS_REGISTER = join(ROOT, 'test', 'support', 'ts-register.js');
const MAIN = join(ROOT, 'src', 'main.ts');

interface Run {
  readonly child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
}

function startService(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['-r', TS_REGISTER, MAIN], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { child, output: () => text };
}

async function waitFor(run: Run, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(run.output());
    if (match) return match;
    if (Date.now() > deadline || run.child.exitCode !== null) {
      throw new Error(`no ${String(pattern)} in:\n${run.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

/** Issue 16: every line JSON, a quiet one-line start-up, one line per request without its text. */
describe('JSON logs of the running service', () => {
  const dir = makeTempDir('agent-chat-logs');
  afterAll(() => dir.remove());

  it('starts with one line, logs each request by route template and never the text', async () => {
    const run = startService({
      CHAT_ROOT: join(dir.path, 'a'),
      CHAT_LOG_LEVEL: 'info',
      CHAT_REQUEST_LOG_SAMPLE: '1',
    });
    try {
      const [, url] = await waitFor(run, /listening on (http:\/\/[0-9.:]+)/);
      const startup = lines(run.output());
      // The heap warning (node runs without --max-old-space-size here) may precede it; nothing else.
      const info = startup.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(info.filter((line) => line.level === 'info')).toHaveLength(1);
      expect(info.at(-1)).toMatchObject({
        level: 'info',
        backend: 'file',
        fsync: 'always',
        replay: { checkpoint: 0, replayed: 0 },
        root: join(dir.path, 'a'),
      });

      expect((await fetch(`${url}/r/logroom/say/ann/secret-words-here`)).status).toBe(200);
      expect((await fetch(`${url}/no/such/path`)).status).toBe(404);
      await waitFor(run, /"status":404/);
      const requests = lines(run.output())
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'request');
      expect(requests).toEqual([
        expect.objectContaining({
          method: 'GET',
          route: '/r/:room/say/:nick/*',
          status: 200,
          client: '127.0.0.1',
        }),
        expect.objectContaining({ method: 'GET', route: null, status: 404 }),
      ]);
      expect(typeof requests[0].ms).toBe('number');
      expect(run.output()).not.toContain('secret-words-here');
      expect(run.output()).not.toContain('logroom');
    } finally {
      await stopProcess(run.child);
    }
    for (const line of lines(run.output())) expect(() => JSON.parse(line) as unknown).not.toThrow();
  }, 60_000);

  it('writes no request lines at warn, but still the start-up line', async () => {
    const run = startService({ CHAT_ROOT: join(dir.path, 'b'), CHAT_LOG_LEVEL: 'warn' });
    try {
      const [, url] = await waitFor(run, /listening on (http:\/\/[0-9.:]+)/);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(run.output()).not.toContain('"request"');
    } finally {
      await stopProcess(run.child);
    }
  }, 60_000);

  it('logs no request at CHAT_REQUEST_LOG_SAMPLE=0, and only a share of them at 0.5', async () => {
    for (const [sample, check] of [
      ['0', (count: number) => expect(count).toBe(0)],
      [
        '0.5',
        (count: number) => {
          expect(count).toBeGreaterThan(10);
          expect(count).toBeLessThan(90);
        },
      ],
    ] as const) {
      const run = startService({ CHAT_ROOT: join(dir.path, `s${sample}`), CHAT_REQUEST_LOG_SAMPLE: sample });
      try {
        const [, url] = await waitFor(run, /listening on (http:\/\/[0-9.:]+)/);
        for (let i = 0; i < 100; i++) expect((await fetch(`${url}/healthz`)).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 300));
        check(lines(run.output()).filter((line) => line.includes('"msg":"request"')).length);
      } finally {
        await stopProcess(run.child);
      }
    }
  }, 60_000);

  it('reports a start-up failure as one JSON line naming the variable, exit 1', async () => {
    const run = startService({ CHAT_ROOT: join(dir.path, 'c'), CHAT_FSYNC: 'sometimes' });
    const code = await new Promise<number | null>((resolve) => run.child.once('exit', resolve));
    expect(code).toBe(1);
    const out = lines(run.output());
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0])).toMatchObject({ level: 'fatal', msg: expect.stringContaining('CHAT_FSYNC') });
  }, 60_000);
});
