import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFrame } from '../../../src/log/file/frame';
import { SegmentedEventLog } from '../../../src/log/file/segmented-event-log';
import { formatFinding } from '../../../src/tools/verify/finding';
import { replay } from '../../../src/tools/replay';
import { verifyDataDir } from '../../../src/tools/verify/verify-data-dir';
import { frames } from '../../support/data-dir-files';
import { TestApp } from '../../support/test-app';

const quiet = { log: () => undefined, warn: () => undefined };

/** Each record of a data directory's log: its offset and whether the next one is in the same batch. */
async function records(root: string): Promise<Array<{ offset: number; continues: boolean; type: string }>> {
  const log = new SegmentedEventLog({ dir: join(root, 'log'), readOnly: true, logger: quiet });
  await log.open();
  const out: Array<{ offset: number; continues: boolean; type: string }> = [];
  try {
    for await (const record of log.read(0)) {
      const { type } = JSON.parse(record.payload.toString('utf8')) as { type: string };
      out.push({ offset: record.offset, continues: record.continues === true, type });
    }
  } finally {
    await log.close();
  }
  return out;
}

/** Issue 24 item 3: replay cuts only between batches, so every directory it makes is one a start takes. */
describe('replay --until and batches', () => {
  const parent = mkdtempSync(join(tmpdir(), 'agent-chat-batch-cut-'));
  let targets = 0;
  const fresh = (): string => join(parent, `target-${targets++}`);
  let source: TestApp;
  afterAll(async () => {
    await source?.close();
    rmSync(parent, { recursive: true, force: true });
  });

  it('every cut at a boundary starts (and verifies); a cut inside a batch is refused naming both boundaries', async () => {
    source = await TestApp.start({ logRetention: 'keep' });
    for (let i = 0; i < 4; i++) await source.getPath(`/r/room-${i % 2}-${i}/say/n/first-${i}`);
    await source.getPath('/r/room-0-0/say/n/second');
    const log = await records(source.root);
    const inside = log.filter((record) => record.continues).map((record) => record.offset + 1);
    expect(inside.length).toBeGreaterThan(0); // a new room's first message is a batch of several records

    const cut = inside[0];
    let start = cut - 1;
    while (start > 0 && log[start - 1].continues) start--;
    let end = cut;
    while (log[end].continues) end++;
    await expect(replay({ source: source.root, target: fresh(), until: { offset: cut } })).rejects.toThrow(
      `--until ${cut} falls inside a batch (offsets ${start}..${end} were appended together and are stored all or none): cut at ${start} or ${end + 1}`,
    );

    for (let until = 1; until <= log.length; until++) {
      if (inside.includes(until)) continue;
      const target = fresh();
      await replay({ source: source.root, target, until: { offset: until } });
      const report = await verifyDataDir(target);
      expect({ until, findings: report.findings }).toEqual({ until, findings: [] });
      const started = await TestApp.start({}, undefined, target); // throws when a start refuses
      await started.close({ keepData: true });
    }
  }, 300_000);

  it('a log written before batch marks: a cut inside a batch goes through, and verify reports what a start refuses', async () => {
    // The same log with its marks cleared: what an older build wrote (each record reads as its own batch).
    const old = fresh();
    cpSync(source.root, old, { recursive: true });
    const log = await records(old);
    const cut = log.findIndex((record) => record.continues) + 1;
    for (const name of readdirSync(join(old, 'log'))) {
      const path = join(old, 'log', name);
      const bytes = readFileSync(path);
      for (const frame of frames(path)) encodeFrame(frame.payload).copy(bytes, frame.position);
      writeFileSync(path, bytes);
    }
    expect((await records(old)).every((record) => !record.continues)).toBe(true);

    const target = fresh();
    await replay({ source: old, target, until: { offset: cut } });
    const refused = TestApp.start({}, undefined, target);
    await expect(refused).rejects.toThrow(/ring file \S+ is missing, the checkpoint at \d+ needs 0 bytes/);
    const findings = (await verifyDataDir(target)).findings.map(formatFinding);
    expect(findings).toEqual([
      expect.stringMatching(/^checkpoints\/\d{20}\.ckpt: a start would refuse: ring file \S+ is missing/),
    ]);
  }, 120_000);
});
