import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  unlinkSync,
} from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  Checkpoint,
  CheckpointAssembler,
  CheckpointHeader,
  CheckpointLine,
  checkpointLines,
} from './checkpoint-format';

export type { Checkpoint, CheckpointHeader } from './checkpoint-format';

const NAME = /^(\d{20})\.ckpt$/;
const FLUSH_BYTES = 1 << 20;

/** `<offset, 20 digits>.ckpt`: names sort in offset order. */
export function checkpointFileName(offset: number): string {
  return `${String(offset).padStart(20, '0')}.ckpt`;
}

/**
 * Checkpoints live in `<root>/checkpoints/<offset, 20 digits>.ckpt` (format: checkpoint-format.ts).
 * Each is streamed to a temporary file, fsynced, renamed into place and the directory fsynced; its
 * last line carries a SHA-256 of everything before it, so a damaged or truncated checkpoint is
 * detected when loaded and start-up falls back to an older one.
 */
export class CheckpointStore {
  readonly dir: string;

  constructor(root: string) {
    this.dir = join(root, 'checkpoints');
    mkdirSync(this.dir, { recursive: true });
  }

  async write(checkpoint: Checkpoint): Promise<void> {
    const name = checkpointFileName(checkpoint.offset);
    const tmp = join(this.dir, `${name}.tmp`);
    const hash = createHash('sha256');
    const handle = await open(tmp, 'w');
    try {
      let chunk = '';
      for (const line of checkpointLines(checkpoint)) {
        chunk += `${line}\n`;
        if (chunk.length >= FLUSH_BYTES) {
          hash.update(chunk);
          await handle.write(chunk);
          chunk = '';
        }
      }
      hash.update(chunk);
      await handle.write(`${chunk}${JSON.stringify(['end', hash.digest('hex')])}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, join(this.dir, name));
    const dir = await open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }

  /** Offsets of the checkpoints on disk, newest first. */
  offsets(): number[] {
    return readdirSync(this.dir)
      .map((name) => NAME.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => b - a);
  }

  /** The header (offset, ring files) of every checkpoint whose first line parses, newest first. */
  headers(): CheckpointHeader[] {
    return this.offsets()
      .map((offset) => this.readHeader(offset))
      .filter((h): h is CheckpointHeader => h !== null);
  }

  /** The whole checkpoint at `offset`, or null when it is missing, truncated or fails its digest. */
  async read(offset: number): Promise<Checkpoint | null> {
    const path = join(this.dir, checkpointFileName(offset));
    if (!existsSync(path)) return null;
    const hash = createHash('sha256');
    const assembler = new CheckpointAssembler();
    let sealed = false;
    try {
      for await (const text of createInterface({
        input: createReadStream(path, 'utf8'),
        crlfDelay: Infinity,
      })) {
        if (sealed) return null; // bytes after the end line
        const line = JSON.parse(text) as CheckpointLine;
        if (line[0] === 'end') {
          if (line[1] !== hash.digest('hex')) return null;
          sealed = true;
          continue;
        }
        hash.update(`${text}\n`);
        assembler.add(line);
      }
      return sealed ? assembler.result() : null;
    } catch {
      return null;
    }
  }

  /** The newest checkpoint that reads back intact, or null. */
  async newestIntact(): Promise<Checkpoint | null> {
    for (const offset of this.offsets()) {
      const checkpoint = await this.read(offset);
      if (checkpoint !== null) return checkpoint;
    }
    return null;
  }

  delete(offset: number): void {
    const path = join(this.dir, checkpointFileName(offset));
    if (existsSync(path)) unlinkSync(path);
  }

  /** Renames a checkpoint to `<name>.damaged` (out of every listing); returns the new name. */
  setAside(offset: number): string {
    const name = `${checkpointFileName(offset)}.damaged`;
    renameSync(join(this.dir, checkpointFileName(offset)), join(this.dir, name));
    return name;
  }

  /** Leftover temporary files of a checkpoint write interrupted by a crash. */
  removeTemporaries(): void {
    for (const name of readdirSync(this.dir)) if (name.endsWith('.tmp')) unlinkSync(join(this.dir, name));
  }

  private readHeader(offset: number): CheckpointHeader | null {
    const fd = openSync(join(this.dir, checkpointFileName(offset)), 'r');
    try {
      let text = '';
      const buffer = Buffer.alloc(64 * 1024);
      for (let position = 0; !text.includes('\n');) {
        const n = readSync(fd, buffer, 0, buffer.length, position);
        if (n === 0) return null;
        text += buffer.toString('utf8', 0, n);
        position += n;
      }
      const line = JSON.parse(text.slice(0, text.indexOf('\n'))) as CheckpointLine;
      return line[0] === 'header' && line[1].version === 2 ? line[1] : null;
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }
}
