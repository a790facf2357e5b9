import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { restoreSnapshot, takeSnapshot } from '../../../src/tools/snapshot';
import { makeTempDir } from '../../support/temp-dir';
import { TestApp } from '../../support/test-app';

const READS = ['/r/a?format=json&limit=200', '/r/a/export', '/r/b/export', '/r/events/export'];

async function state(app: TestApp): Promise<string[]> {
  return Promise.all(READS.map(async (url) => (await app.getPath(url)).body));
}

/** Issue 27, file backend: `npm run snapshot` writes the shared format and restores into a fresh CHAT_ROOT. */
describe('npm run snapshot (file backend)', () => {
  const out = makeTempDir('agent-chat-snap-out');
  const targets = [makeTempDir('agent-chat-snap-a'), makeTempDir('agent-chat-snap-b')];
  const sources: string[] = [];
  afterAll(() => {
    [out, ...targets].forEach((dir) => dir.remove());
    sources.forEach((root) => rmSync(root, { recursive: true, force: true }));
  });

  it('restores a snapshot into an empty data directory where the service starts with the same state and writes on', async () => {
    const source = await TestApp.start({ ringBytes: 4096 });
    const text = 'y'.repeat(300);
    for (let i = 0; i < 60; i++) await source.getPath(`/r/${i % 3 ? 'a' : 'b'}/say/n/${text}${i}`);
    const expected = await state(source);
    await source.close({ keepData: true }); // takes the final checkpoint
    sources.push(source.root);
    const { path, offset } = await takeSnapshot(source.root, out.path);
    expect(offset).toBeGreaterThan(60);

    await expect(restoreSnapshot(path, targets[0].path)).resolves.toEqual({ offset });
    const restored = await TestApp.start({ ringBytes: 4096 }, undefined, targets[0].path);
    expect(await state(restored)).toEqual(expected);
    const next = (await restored.getPath('/r/a/say/n/after-restore?format=json')).body;
    expect(next).toContain('"last_seq":41');
    await restored.close({ keepData: true });
    // Into a directory that already holds a log: refused.
    await expect(restoreSnapshot(path, targets[0].path)).rejects.toThrow(
      /is not empty: restore into a fresh CHAT_ROOT/,
    );
  });

  it('refuses a damaged snapshot and moves nothing into place', async () => {
    const source = await TestApp.start();
    await source.getPath('/r/a/say/n/hello');
    await source.close({ keepData: true });
    sources.push(source.root);
    const { path } = await takeSnapshot(source.root, join(out.path, 'second'));
    const bytes = readFileSync(path);
    bytes[bytes.length - 10] ^= 0x01;
    writeFileSync(path, bytes);
    await expect(restoreSnapshot(path, targets[1].path)).rejects.toThrow(/is damaged \(SHA-256 mismatch\)/);
  });
});
