import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storageFullCause } from '../../../src/storage/storage-full.error';
import { json, TestApp } from '../../support/test-app';

/** A tmpfs of `size` mounted by the test (it runs as root in CI), so ENOSPC is the kernel's own. */
function mountTmpfs(size: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-chat-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  return dir;
}

describe('a full data directory (issue 11 item 5)', () => {
  let mount: string;
  beforeAll(() => (mount = mountTmpfs('1m')));
  afterAll(() => {
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });

  it('refuses writes with 507, keeps reads and acknowledged writes, says why on /healthz, recovers after space returns', async () => {
    const root = join(mount, 'data');
    mkdirSync(root);
    const app = await TestApp.start({ logSegmentBytes: 1 << 16, ringBytes: 1 << 20 }, undefined, root);
    const acked: Array<{ room: string; seq: number; text: string }> = [];
    // Stored by the log before a ring write failed: 503 stored_not_applied, never 507 (issue 24 item 4).
    const stored: Array<{ room: string; text: string }> = [];
    let refused = null as null | { status: number; body: string };
    for (let i = 0; i < 2000 && refused === null; i++) {
      const room = `full${i % 4}`;
      const text = `message ${i} ${'x'.repeat(2000)}`;
      const reply = await app.post(`/r/${room}?format=json`, { from: 'disk', text });
      if (reply.status === 200) {
        acked.push({ room, seq: (json(reply).posted as { seq: number }).seq, text });
      } else if (reply.status === 503 && reply.body.startsWith('503 the write was stored')) {
        stored.push({ room, text });
      } else refused = { status: reply.status, body: reply.body };
    }
    expect(acked.length).toBeGreaterThan(10);
    expect(refused).toMatchObject({
      status: 507,
      body: expect.stringMatching(/^507 insufficient storage: .*ENOSPC/),
    });
    const again = await app.post('/r/full0?format=json', { from: 'disk', text: 'one more' });
    expect(again.status).toBe(507);

    const read = await app.getPath('/r/full0?format=json&limit=1');
    expect(read.status).toBe(200);
    const health = await app.getPath('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toContain('ENOSPC');

    execFileSync('mount', ['-o', 'remount,size=32m', mount]);
    await app.restart();
    for (const room of ['full0', 'full1', 'full2', 'full3']) {
      const records = (await app.getPath(`/r/${room}/export`)).body.trim().split('\n').filter(Boolean);
      const bySeq = new Map(
        records.map((line) => JSON.parse(line) as { seq: number; text: string }).map((r) => [r.seq, r.text]),
      );
      for (const write of acked.filter((w) => w.room === room)) expect(bySeq.get(write.seq)).toBe(write.text);
      const texts = new Set(bySeq.values());
      for (const write of stored.filter((w) => w.room === room)) expect(texts.has(write.text)).toBe(true);
    }
    expect((await app.post('/r/full0?format=json', { from: 'disk', text: 'space is back' })).status).toBe(
      200,
    );
    expect((await app.getPath('/healthz')).body).toBe('ok\n');
    await app.close();
  }, 60_000);

  it('names a full disk, an exhausted quota and a read-only mount; other errors are not storage faults', () => {
    const fault = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });
    expect(storageFullCause(fault('ENOSPC'))).toMatch(/no space left/);
    expect(storageFullCause(fault('EDQUOT'))).toMatch(/quota/);
    expect(storageFullCause(fault('EROFS'))).toMatch(/read-only/);
    expect(storageFullCause(fault('EIO'))).toBeNull();
  });
});
