import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NATS_URL } from './nats-stream';

const run = promisify(execFile);
const DIST = join(__dirname, '..', '..', 'dist', 'tools');

/**
 * Runs a built tool (`dist/tools/<name>.cli.js`; `npm run build` first) against the suite's NATS,
 * with `env` added: what it printed (stdout, then stderr when it failed) and its exit code.
 */
export async function builtNatsTool(
  name: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ readonly out: string; readonly code: number }> {
  try {
    const { stdout } = await run(process.execPath, [join(DIST, `${name}.cli.js`), ...args], {
      env: { ...process.env, CHAT_NATS_URL: NATS_URL, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { out: stdout, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { out: failed.stdout + failed.stderr, code: failed.code };
  }
}
