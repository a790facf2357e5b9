import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../../support/temp-dir';
import { TestApp } from '../../support/test-app';

/**
 * Issue 24 item 4: the log commits a write, then the ring write fails for want of space. The ring
 * files live on their own 16 KiB tmpfs (a real file system: ENOSPC is the kernel's own), so the log
 * keeps taking records while the rooms directory is full: exactly "stored, then not applied".
 */
describe('a disk that fills between the log commit and the ring write', () => {
  const dir = makeTempDir('agent-chat-full-rings');
  const root = join(dir.path, 'data');
  const rooms = join(root, 'rooms');
  let app: TestApp | undefined;
  beforeAll(() => {
    mkdirSync(rooms, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', rooms]);
  });
  afterAll(async () => {
    await app?.close({ keepData: true }).catch(() => undefined);
    execFileSync('umount', [rooms]);
    dir.remove();
  });

  it('answers what is true (stored: 503 stored_not_applied; refused: 507), exports without a 5xx, loses nothing', async () => {
    app = await TestApp.start({ logRetention: 'keep' }, undefined, root);
    const replies: Array<{ text: string; status: number; body: string }> = [];
    for (let i = 0; i < 200; i++) {
      const text = `message ${i} ${'x'.repeat(1500)}`;
      const reply = await app.post('/r/full0?format=json', { from: 'disk', text });
      replies.push({ text, status: reply.status, body: reply.body });
      if (reply.status === 507) break;
    }
    const stored = replies.filter((reply) => reply.status === 503);
    expect(stored).toHaveLength(1); // the write whose ring append hit ENOSPC after the commit
    expect(stored[0].body).toMatch(
      /^503 the write was stored \(log offset \d+\) but the read models could not apply it .*ENOSPC/,
    );
    const refused = replies[replies.length - 1];
    expect(refused.status).toBe(507); // later writes: the log never stores them, and says so
    expect(refused.body).toContain('Nothing was stored');
    expect(replies.every((reply) => [200, 503, 507].includes(reply.status))).toBe(true);

    const exported = await app.getPath('/r/full0/export');
    expect(exported.status).toBe(200);
    for (const reply of replies.filter((r) => r.status === 200)) expect(exported.body).toContain(reply.text);

    // Space returns; after a restart every stored write is there, the refused one is not.
    execFileSync('mount', ['-o', 'remount,size=8m', rooms]);
    await app.restart();
    const after = (await app.getPath('/r/full0/export')).body;
    for (const reply of replies) {
      if (reply.status === 507) expect(after).not.toContain(reply.text);
      else expect(after).toContain(reply.text);
    }
  }, 120_000);
});
