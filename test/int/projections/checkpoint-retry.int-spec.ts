import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestApp } from '../../support/test-app';

const eventually = async (check: () => Promise<boolean>, ms: number): Promise<boolean> => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    if (await check()) return true;
  }
  return false;
};

/** Issue 18 item 2: a checkpoint that fails (here ENOTDIR; EMFILE in the field) is reported and retried. */
describe('checkpoint failures', () => {
  it('are reported by /healthz while they last, never stop writes, and a retry succeeds once the cause is gone', async () => {
    const app = await TestApp.start({ checkpointSeconds: 0.2 });
    const checkpoints = join(app.root, 'checkpoints');
    renameSync(checkpoints, `${checkpoints}.away`);
    writeFileSync(checkpoints, 'not a directory');
    expect((await app.getPath('/r/ckpt/say/a/one')).status).toBe(200);

    const reported = await eventually(async () => {
      const health = await app.getPath('/healthz');
      return health.status === 503 && /checkpoints failing since .*: /.test(health.body);
    }, 5000);
    expect(reported).toBe(true);
    expect((await app.getPath('/r/ckpt/say/a/two')).status).toBe(200);

    rmSync(checkpoints);
    renameSync(`${checkpoints}.away`, checkpoints);
    const recovered = await eventually(async () => (await app.getPath('/healthz')).status === 200, 8000);
    expect(recovered).toBe(true);
    mkdirSync(checkpoints, { recursive: true });
    await app.close();
  }, 30_000);
});
