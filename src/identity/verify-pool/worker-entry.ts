import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { WorkerOptions } from 'node:worker_threads';

/**
 * Where the verify worker's code is and how to start it. Built (`dist/`), the entry is plain
 * JavaScript beside this file. Run from source (jest, `node -r test/support/ts-register.js` in tests
 * and bench), the entry is TypeScript and the worker needs the same transpile-on-require hook the
 * parent runs under; the repository's hook is used then. This is the only place the service knows it
 * may be running from source.
 */
export function verifyWorkerEntry(): { file: string; options: WorkerOptions } {
  const extension = extname(__filename);
  const file = join(__dirname, `ed25519-verify.worker${extension}`);
  if (extension !== '.ts') return { file, options: {} };
  const hook = join(__dirname, '..', '..', '..', 'test', 'support', 'ts-register.js');
  if (!existsSync(hook)) throw new Error(`cannot run the verify worker from source without ${hook}`);
  return { file, options: { execArgv: ['-r', hook] } };
}
