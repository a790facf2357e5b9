import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLock } from '../../../src/storage/data-dir-lock';
import { ServiceProcess } from '../../support/service-process';

/** Starts the service on `root` expecting a refusal: its exit code, its output and how long it took. */
async function startRefused(root: string): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const run = await ServiceProcess.refusedStart({ CHAT_ROOT: root });
  return { code: run.code, output: run.stdout + run.stderr, ms: Date.now() - started };
}

describe('one process per data directory (issue 11 item 1)', () => {
  let root: string;
  const services: ServiceProcess[] = [];
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'agent-chat-lock-'))));
  afterEach(async () => {
    for (const service of services.splice(0)) await service.stop('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a second service on the same CHAT_ROOT, naming the directory and the holder PID', async () => {
    const first = await ServiceProcess.start({ CHAT_ROOT: root });
    services.push(first);
    const second = await startRefused(root);
    expect(second.code).not.toBe(0);
    expect(second.output).toContain(realpathSync(root));
    expect(second.output).toContain(`process ${first.child.pid}`);
    expect(second.output).not.toContain('listening on');
    // The refusal comes before the app is built; the bound is loose for a loaded CI machine.
    expect(second.ms).toBeLessThan(15_000);
    // The first owner is untouched and still takes writes.
    const write = await fetch(first.url('/r/lock/say/a/still-here'));
    expect(write.status).toBe(200);
  });

  it('frees the directory when the holder dies, by kill -9 or a clean stop (a stale LOCK file is replaced)', async () => {
    const first = await ServiceProcess.start({ CHAT_ROOT: root });
    await first.kill9();
    const second = await ServiceProcess.start({ CHAT_ROOT: root });
    expect(readFileSync(join(root, 'LOCK'), 'utf8')).toMatch(new RegExp(`^${second.child.pid} `));
    await second.stop('SIGTERM');
    const third = await ServiceProcess.start({ CHAT_ROOT: root });
    services.push(third);
    expect(readFileSync(join(root, 'LOCK'), 'utf8')).toMatch(new RegExp(`^${third.child.pid} `));
  }, 120_000); // three service starts: generous for a loaded CI machine

  it('the lock the replay tool takes on its target keeps the service out', async () => {
    const lock = await DataDirLock.acquire(root);
    try {
      const refused = await startRefused(root);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain(`process ${process.pid}`);
      await expect(DataDirLock.acquire(root)).rejects.toThrow(/is locked by/);
    } finally {
      lock.release();
    }
    const after = await DataDirLock.acquire(root);
    after.release();
  });
});
