import { readFileSync } from 'node:fs';

/** A file's bytes, or null when it does not exist (a running service may remove files as we read). */
export function readIfPresent(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
