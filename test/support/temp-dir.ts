import { cpSync, mkdtempSync, rmSync } from 'node:fs';
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

/**
 * Makes fresh numbered copies of the directory `source()` names, inside `parent`: one fixture built
 * once, and a copy for each test to damage its own way.
 */
export function directoryCopier(parent: string, source: () => string): () => string {
  let copies = 0;
  return () => {
    const target = join(parent, `copy-${copies++}`);
    cpSync(source(), target, { recursive: true });
    return target;
  };
}
