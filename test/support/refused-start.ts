import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const TS_REGISTER = join(ROOT, 'test', 'support', 'ts-register.js');
const MAIN = join(ROOT, 'src', 'main.ts');

/** Starts the real service on `root` expecting a refusal: its exit code, its output and how long it took. */
export function startRefused(
  root: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['-r', TS_REGISTER, MAIN], {
    cwd: ROOT,
    env: { ...process.env, CHAT_ROOT: root, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) => {
    // A start that is not refused listens forever: killed after a while, its output tells why.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });
}
