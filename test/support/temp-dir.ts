import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh real directory under the OS temp dir; `remove` deletes it and everything in it. */
export function makeTempDir(prefix: string): { readonly path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Runs `body` with a fresh temporary directory, removed afterwards whatever happens. */
export async function withTempDir(
  body: (dir: string) => Promise<void>,
  prefix = 'agent-chat-',
): Promise<void> {
  const dir = makeTempDir(prefix);
  try {
    await body(dir.path);
  } finally {
    dir.remove();
  }
}
