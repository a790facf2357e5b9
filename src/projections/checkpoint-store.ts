import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';

/** What a checkpoint records: the next log offset to apply, every projection's state, the files it trusts. */
export interface Checkpoint {
  readonly version: 1;
  readonly offset: number;
  readonly createdAt: string;
  readonly projections: Record<string, unknown>;
  /** Ring file name → length valid at `offset`. */
  readonly files: Record<string, number>;
}

const NAME = /^(\d{20})\.json$/;

/**
 * Checkpoints live in `<root>/checkpoints/<offset, 20 digits>.json`, each written to a temporary file,
 * fsynced, renamed into place and the directory fsynced, with a SHA-256 of its body in the first line so
 * a damaged checkpoint is detected and skipped (start-up then falls back to an older one).
 */
export class CheckpointStore {
  readonly dir: string;

  constructor(root: string) {
    this.dir = join(root, 'checkpoints');
    mkdirSync(this.dir, { recursive: true });
  }

  async write(checkpoint: Checkpoint): Promise<void> {
    const body = JSON.stringify(checkpoint);
    const digest = createHash('sha256').update(body).digest('hex');
    const name = `${String(checkpoint.offset).padStart(20, '0')}.json`;
    const tmp = join(this.dir, `${name}.tmp`);
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(`${digest}\n${body}`);
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

  /** The checkpoint at `offset`, or null when it is missing or fails its digest. */
  read(offset: number): Checkpoint | null {
    const path = join(this.dir, `${String(offset).padStart(20, '0')}.json`);
    if (!existsSync(path)) return null;
    const text = readFileSync(path, 'utf8');
    const newline = text.indexOf('\n');
    const body = text.slice(newline + 1);
    if (newline !== 64 || createHash('sha256').update(body).digest('hex') !== text.slice(0, 64)) return null;
    try {
      return JSON.parse(body) as Checkpoint;
    } catch {
      return null;
    }
  }

  /** Every readable checkpoint, newest first. */
  readAll(): Checkpoint[] {
    return this.offsets()
      .map((offset) => this.read(offset))
      .filter((c): c is Checkpoint => c !== null);
  }

  delete(offset: number): void {
    const path = join(this.dir, `${String(offset).padStart(20, '0')}.json`);
    if (existsSync(path)) unlinkSync(path);
  }

  /** Leftover temporary files of a checkpoint write interrupted by a crash. */
  removeTemporaries(): void {
    for (const name of readdirSync(this.dir)) if (name.endsWith('.tmp')) unlinkSync(join(this.dir, name));
  }
}
