import { mkdir, open, readdir, unlink } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import { parseSegmentFileName } from './segment';

/**
 * Directory-level operations. A file's creation, removal or rename is durable only once the directory
 * holding it is fsync'ed; the log does so after creating a segment and after each retention removal.
 */

/** Creates `dir` (and missing parents) and makes the new entries durable in their parents. */
export async function ensureDirectory(dir: string): Promise<void> {
  const firstCreated = await mkdir(dir, { recursive: true });
  if (firstCreated === undefined) return;
  // Every directory from the parent of the first created one down to the parent of `dir` got an entry.
  let current = dirname(firstCreated);
  await syncDirectory(current);
  for (const part of relative(current, dirname(dir)).split(sep).filter(Boolean)) {
    current = `${current}${sep}${part}`;
    await syncDirectory(current);
  }
}

/** fsync of a directory: makes entries created or removed in it durable. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Base offsets of the segment files in `dir`, ascending. Files with other names are ignored. */
export async function listSegmentBases(dir: string): Promise<number[]> {
  const bases: number[] = [];
  for (const name of await readdir(dir)) {
    const base = parseSegmentFileName(name);
    if (base !== undefined) bases.push(base);
  }
  return bases.sort((a, b) => a - b);
}

/** Deletes one segment file and makes the deletion durable before returning. */
export async function removeSegmentFile(dir: string, path: string): Promise<void> {
  await unlink(path);
  await syncDirectory(dir);
}
