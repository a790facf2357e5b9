import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotBytes, unpackSnapshot } from '../../../src/projections/snapshot/snapshot-format';
import { withTempDir } from '../../support/temp-dir';

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

async function* inPieces(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** A checkpoint file and two ring files, one with bytes past the length the checkpoint names. */
function source(dir: string) {
  mkdirSync(join(dir, 'rooms'));
  writeFileSync(join(dir, 'ckpt'), '["header",{}]\n["end","x"]\n');
  writeFileSync(join(dir, 'rooms', 'one.0.0.jsonl'), 'line one\nline two\nwritten after the checkpoint\n');
  writeFileSync(join(dir, 'rooms', 'empty.0.0.jsonl'), '');
  return {
    offset: 42,
    createdAt: '2026-11-27T00:00:00.000000Z',
    checkpointPath: join(dir, 'ckpt'),
    files: { 'one.0.0.jsonl': 18, 'empty.0.0.jsonl': 0 },
    ringPath: (file: string) => join(dir, 'rooms', file),
  };
}

describe('the snapshot format (one for the nats object store and npm run snapshot)', () => {
  it('round-trips the checkpoint and each ring file cut at its checkpointed length, whatever the chunking', () =>
    withTempDir(async (dir) => {
      const bytes = await collect(snapshotBytes(source(dir)));
      for (const size of [1, 7, 64 * 1024]) {
        const out = join(dir, `out-${size}`);
        // Each file is reported once, closed and whole (the restore fsyncs it from there).
        const written = new Map<string, string>();
        const { header, digestOk } = await unpackSnapshot(inPieces(bytes, size), out, (path) =>
          written.set(path, readFileSync(path, 'utf8')),
        );
        expect(written).toEqual(
          new Map([
            [join(out, 'checkpoint'), '["header",{}]\n["end","x"]\n'],
            [join(out, 'rooms', 'one.0.0.jsonl'), 'line one\nline two\n'],
            [join(out, 'rooms', 'empty.0.0.jsonl'), ''],
          ]),
        );
        expect(digestOk).toBe(true);
        expect(header.offset).toBe(42);
        expect(readFileSync(join(out, 'checkpoint'), 'utf8')).toBe('["header",{}]\n["end","x"]\n');
        expect(readFileSync(join(out, 'rooms', 'one.0.0.jsonl'), 'utf8')).toBe('line one\nline two\n');
        expect(readFileSync(join(out, 'rooms', 'empty.0.0.jsonl'), 'utf8')).toBe('');
      }
    }, 'snap-'));

  it('detects one flipped bit anywhere past the header, and a truncated snapshot', () =>
    withTempDir(async (dir) => {
      const bytes = await collect(snapshotBytes(source(dir)));
      const headerEnd = bytes.indexOf(0x0a) + 1;
      for (const at of [headerEnd, headerEnd + 30, bytes.length - 2]) {
        const damaged = Buffer.from(bytes);
        damaged[at] ^= 0x01;
        const { digestOk } = await unpackSnapshot(inPieces(damaged, 5), join(dir, `bad-${at}`));
        expect(digestOk).toBe(false);
      }
      await expect(
        unpackSnapshot(inPieces(bytes.subarray(0, headerEnd + 10), 5), join(dir, 'short')),
      ).rejects.toThrow('snapshot ends early');
    }, 'snap-'));

  it('refuses a ring file name that would leave the directory it is restored into', () =>
    withTempDir(async (dir) => {
      const header = JSON.stringify({
        format: 'agent-chat-snapshot',
        version: 1,
        offset: 1,
        createdAt: '',
        checkpoint: 0,
        files: { '../escape': 1 },
      });
      await expect(unpackSnapshot(inPieces(Buffer.from(`${header}\nx`), 4), join(dir, 'x'))).rejects.toThrow(
        'unsafe file name',
      );
    }, 'snap-'));
});
