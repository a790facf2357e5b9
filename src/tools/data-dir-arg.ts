import { statSync } from 'node:fs';
import { NoDataDirError } from './errors/no-data-dir.error';

/** The data directory a tool was given, checked to exist before anything reads inside it. */
export function existingDataDir(path: string): string {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new NoDataDirError(path, 'missing');
  }
  if (!isDirectory) throw new NoDataDirError(path, 'not a directory');
  return path;
}
