import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitOf, spawnListening, stopProcess } from '../../support/listening-process';

const ROOT = join(__dirname, '..', '..', '..');

/** Containers and supervisors signal the process they started: `npm start` (issue 11 item 2). */
describe('signals sent to the npm start process', () => {
  let root: string;
  beforeAll(() => {
    // prestart would build dist/ on first use; doing it here keeps the start below within its timeout.
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'ensure-built.js')], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }, 180_000);
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'agent-chat-npm-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to npm stops the service gracefully, exits 0 and frees the port`, async () => {
      const { child, url } = await spawnListening(['start'], {
        command: 'npm',
        cwd: ROOT,
        env: { ...process.env, CHAT_ROOT: root, PORT: '0', HOST: '127.0.0.1', CHAT_LOG_LEVEL: 'info' },
        timeoutMs: 60_000,
      });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      expect((await fetch(`${url}/r/npm/say/a/before-stop`)).status).toBe(200);
      const exit = exitOf(child);
      await stopProcess(child, signal);
      // A graceful stop is a success (issue 25): npm passes on node's 0, not 143 or 130.
      expect(await exit).toEqual({ code: 0, signal: null });
      // The node process (not just npm) is gone: nothing listens on the port any more.
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
      const stopped =
        /stopped: event log flushed and synced through offset (\d+), .*last checkpoint at offset (\d+)/.exec(
          output,
        );
      expect(stopped).not.toBeNull();
      expect(Number(stopped![1])).toBeGreaterThan(0);
      expect(stopped![2]).toBe(stopped![1]); // the final checkpoint covers every record
    }, 90_000);
  }
});
