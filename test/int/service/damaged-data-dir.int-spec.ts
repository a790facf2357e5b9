import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { CheckpointStore } from '../../../src/projections/checkpoint-store';
import { verifyDataDir } from '../../../src/tools/verify/verify-data-dir';
import { ServiceProcess } from '../../support/service-process';
import { dataDirCopier, frames } from '../../support/data-dir-files';
import { makeTempDir } from '../../support/temp-dir';
import { TestApp } from '../../support/test-app';

const ROOT = join(__dirname, '..', '..', '..');
const TS_REGISTER = join(ROOT, 'test', 'support', 'ts-register.js');

/** Starts the real service on `root` expecting a refusal: its exit code and everything it wrote. */
async function startRefused(root: string): Promise<{ code: number | null; output: string }> {
  const run = await ServiceProcess.refusedStart({ CHAT_ROOT: root });
  return { code: run.code, output: run.stdout + run.stderr };
}

/** SHA-256 of every file under `root` but LOCK (which names whoever opened the directory last). */
function hashes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || entry.name === 'LOCK') continue;
    out[relative(root, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}

function salvage(root: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(
    process.execPath,
    ['-r', TS_REGISTER, join(ROOT, 'src', 'tools', 'salvage.cli.ts'), root, ...args],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Byte positions of the frames of a segment. */
function framePositions(path: string): number[] {
  return frames(path).map((frame) => frame.position);
}

/** Issue 24 item 1: a start never deletes or rewrites bytes that may hold acknowledged records. */
describe('a damaged data directory', () => {
  const dir = makeTempDir('agent-chat-damaged');
  let source: string;
  const copy = dataDirCopier(dir.path, () => source);

  beforeAll(async () => {
    const app = await TestApp.start(
      { logRetention: 'keep', checkpointEvents: 20 },
      undefined,
      join(dir.path, 'source'),
    );
    for (let i = 0; i < 40; i++) await app.getPath(`/r/${i % 2 ? 'alpha' : 'beta'}/say/n/message-${i}`);
    await app.close({ keepData: true });
    source = app.root;
  }, 60_000);
  afterAll(() => dir.remove());

  it('a flipped byte mid-segment: the start refuses naming file, byte, offset and salvage; nothing changes', async () => {
    const root = copy();
    const segment = join(root, 'log', readdirSync(join(root, 'log')).sort().pop()!);
    const positions = framePositions(segment);
    const victim = positions.length - 13; // 12 intact records follow it
    const bytes = readFileSync(segment);
    bytes[positions[victim] + 12] ^= 0x01;
    writeFileSync(segment, bytes);
    const before = hashes(root);

    const refused = await startRefused(root);
    expect(refused.code).not.toBe(0);
    expect(refused.output).not.toContain('listening on');
    expect(refused.output).toContain(`log segment ${segment} is damaged at byte ${positions[victim]}`);
    expect(refused.output).toContain(`offset ${victim}`); // one segment, base 0
    expect(refused.output).toContain('npm run salvage');
    expect(hashes(root)).toEqual(before);

    // The dry run says what it would do and changes nothing.
    const dry = salvage(root, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      `would move bytes ${positions[victim]}..${positions[victim + 1] - 1} of log/`,
    );
    expect(hashes(root)).toEqual(before);

    // The salvage keeps every valid frame and moves the damaged bytes (one frame) aside.
    const done = salvage(root);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`salvage: done: ${positions.length - 1} valid frames kept`);
    const moved = readdirSync(join(root, 'salvage')).filter((name) => name.endsWith('.damaged'));
    expect(moved).toEqual([`${segment.split('/').pop()}.${positions[victim]}.damaged`]);
    expect(readFileSync(join(root, 'salvage', moved[0]))).toEqual(
      bytes.subarray(positions[victim], positions[victim + 1]),
    );
    expect(statSync(segment).size).toBe(bytes.length - (positions[victim + 1] - positions[victim]));

    expect((await verifyDataDir(root)).findings).toEqual([]); // rings past the checkpoints kept aside

    // The salvaged directory starts, and the records after the damage are there.
    const app = await TestApp.start({ logRetention: 'keep' }, undefined, root);
    try {
      const alpha = (await app.getPath('/r/alpha/export')).body;
      const beta = (await app.getPath('/r/beta/export')).body;
      expect(alpha + beta).toContain('message-39');
      expect(alpha + beta).toContain('message-38');
    } finally {
      await app.close({ keepData: true });
    }
  }, 180_000);

  it('a ring file shorter than its checkpoint records: the start refuses before cutting any ring file', async () => {
    const root = copy();
    const newest = (await new CheckpointStore(root).newestIntact())!;
    const files = Object.keys(newest.files);
    expect(files.length).toBeGreaterThanOrEqual(2);
    // The first file is longer than recorded (a start would cut it), the last one too short.
    appendFileSync(join(root, 'rooms', files[0]), '{"extra":1}\n');
    truncateSync(join(root, 'rooms', files[files.length - 1]), 5);
    const before = hashes(root);
    const refused = await startRefused(root);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain(`ring file ${files[files.length - 1]} holds 5 bytes`);
    expect(hashes(root)).toEqual(before);
  }, 120_000);

  it('a damaged newest checkpoint: kept aside byte for byte as .damaged, the start replays from an older one', async () => {
    const root = copy();
    const store = new CheckpointStore(root);
    const [newest] = store.offsets();
    const name = `${String(newest).padStart(20, '0')}.ckpt`;
    const path = join(root, 'checkpoints', name);
    const bytes = readFileSync(path);
    bytes[30] ^= 0x02;
    writeFileSync(path, bytes);
    const app = await TestApp.start({ logRetention: 'keep', checkpointEvents: 20 }, undefined, root);
    try {
      expect(existsSync(path)).toBe(false);
      expect(readFileSync(`${path}.damaged`)).toEqual(bytes);
      const all = (await app.getPath('/r/alpha/export')).body + (await app.getPath('/r/beta/export')).body;
      for (let i = 0; i < 40; i++) expect(all).toContain(`message-${i}"`);
    } finally {
      await app.close({ keepData: true });
    }
    expect(readFileSync(`${path}.damaged`)).toEqual(bytes); // retention does not count it
  }, 120_000);
});
