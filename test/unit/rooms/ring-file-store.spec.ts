import { readFileSync, statSync } from 'node:fs';
import { FLUSH_AFTER_MS, RingFileStore } from '../../../src/rooms/ring/ring-file-store';
import { makeTempDir } from '../../support/temp-dir';

// Appends are held in memory and written per file in one writev; these pin what every reader sees.
describe('RingFileStore holds appends and writes them together', () => {
  const dirs: { remove(): void }[] = [];
  afterAll(() => dirs.forEach((dir) => dir.remove()));

  function store(): RingFileStore {
    const dir = makeTempDir('ring-store');
    dirs.push(dir);
    return new RingFileStore(dir.path);
  }
  const line = (i: number) => Buffer.from(`{"seq":${i}}\n`);
  const onDisk = (files: RingFileStore, file: string) => readFileSync(files.path(file), 'utf8');

  function appendLines(files: RingFileStore, file: string, from: number, to: number): number {
    let position = 0;
    for (let i = 1; i < from; i++) position += line(i).length;
    for (let i = from; i <= to; i++) {
      files.append(file, position, line(i));
      position += line(i).length;
    }
    return position;
  }

  it('reads held appends as if written, before anything reached the disk', () => {
    const files = store();
    const end = appendLines(files, 'a.1.0.jsonl', 1, 5);
    expect(statSync(files.path('a.1.0.jsonl'), { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    expect(files.readRange('a.1.0.jsonl', 0, end).toString()).toBe(
      [1, 2, 3, 4, 5].map((i) => `{"seq":${i}}\n`).join(''),
    );
    const second = line(1).length;
    expect(files.readRange('a.1.0.jsonl', second, second + line(2).length).toString()).toBe('{"seq":2}\n');
    files.close();
  });

  it('reads across the written part and the held part of a file', () => {
    const files = store();
    appendLines(files, 'b.1.0.jsonl', 1, 3);
    files.flushAll();
    const end = appendLines(files, 'b.1.0.jsonl', 4, 6);
    expect(onDisk(files, 'b.1.0.jsonl')).toBe('{"seq":1}\n{"seq":2}\n{"seq":3}\n');
    expect(files.readRange('b.1.0.jsonl', line(1).length, end).toString()).toBe(
      [2, 3, 4, 5, 6].map((i) => `{"seq":${i}}\n`).join(''),
    );
    files.close();
  });

  it('writes a file once its held run is long enough, and everything on a checkpoint, an export and close', async () => {
    const files = store();
    appendLines(files, 'c.1.0.jsonl', 1, 40); // past the run limit: the first 32 are written at once
    expect(onDisk(files, 'c.1.0.jsonl').split('\n').length - 1).toBe(32);
    await files.syncDirty();
    expect(onDisk(files, 'c.1.0.jsonl').split('\n').length - 1).toBe(40);
    appendLines(files, 'd.1.0.jsonl', 1, 2);
    const snapshot = files.snapshot('d.1.0.jsonl');
    snapshot.close();
    expect(onDisk(files, 'd.1.0.jsonl')).toBe('{"seq":1}\n{"seq":2}\n');
    appendLines(files, 'e.1.0.jsonl', 1, 2);
    files.close();
    expect(onDisk(files, 'e.1.0.jsonl')).toBe('{"seq":1}\n{"seq":2}\n');
  });

  it('writes held bytes on its own shortly after, without any reader', async () => {
    const files = store();
    appendLines(files, 'f.1.0.jsonl', 1, 3);
    await new Promise((resolve) => setTimeout(resolve, FLUSH_AFTER_MS + 300));
    expect(onDisk(files, 'f.1.0.jsonl')).toBe('{"seq":1}\n{"seq":2}\n{"seq":3}\n');
    files.close();
  });

  it('writes the held run first when an append does not continue it, so bytes keep their order', () => {
    const files = store();
    appendLines(files, 'g.1.0.jsonl', 1, 2);
    files.append('g.1.0.jsonl', 0, Buffer.from('{"seq":9}\n')); // not where the held run ends
    expect(onDisk(files, 'g.1.0.jsonl')).toBe('{"seq":1}\n{"seq":2}\n'); // the held run went first
    files.flushAll();
    // Ring files are opened for appending (O_APPEND): a write lands at the end whatever its position.
    expect(onDisk(files, 'g.1.0.jsonl')).toBe('{"seq":1}\n{"seq":2}\n{"seq":9}\n');
    files.close();
  });

  it('forgets held bytes of a file it deletes or truncates', () => {
    const files = store();
    appendLines(files, 'h.1.0.jsonl', 1, 2);
    files.delete('h.1.0.jsonl');
    files.flushAll();
    expect(statSync(files.path('h.1.0.jsonl'), { throwIfNoEntry: false })).toBeUndefined();
    files.close();
  });

  it('cuts a file back to a checkpointed length, held bytes included, and leaves one at that length as it is', async () => {
    const files = store();
    const checkpointed = appendLines(files, 'k.1.0.jsonl', 1, 3);
    await files.syncDirty();
    appendLines(files, 'k.1.0.jsonl', 4, 6); // after the checkpoint: on disk and held
    files.flushAll();
    appendLines(files, 'k.1.0.jsonl', 7, 7);
    files.truncate('k.1.0.jsonl', checkpointed);
    files.flushAll();
    expect(onDisk(files, 'k.1.0.jsonl')).toBe('{"seq":1}\n{"seq":2}\n{"seq":3}\n');
    files.truncate('k.1.0.jsonl', checkpointed);
    expect(files.size('k.1.0.jsonl')).toBe(checkpointed);
    expect(onDisk(files, 'k.1.0.jsonl')).toBe('{"seq":1}\n{"seq":2}\n{"seq":3}\n');
    files.close();
  });
});
