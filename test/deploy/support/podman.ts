import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..', '..');
const PODMAN_ENV = join(REPO_ROOT, 'deploy', 'local-base', 'podman-env.sh');

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end (never throws on a non-zero status: the caller asserts on `code`). */
export function run(
  command: string,
  args: readonly string[],
  options: { timeoutMs?: number; cwd?: string } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd ?? REPO_ROOT, timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A command run with the project's podman settings (runc, explicit ulimits: podman-env.sh). */
export function withPodmanEnv(command: string, args: readonly string[], timeoutMs?: number): Promise<Run> {
  return run('bash', ['-c', `source ${PODMAN_ENV} && exec "$@"`, 'bash', command, ...args], { timeoutMs });
}

export const podman = (args: readonly string[], timeoutMs?: number): Promise<Run> =>
  withPodmanEnv('podman', args, timeoutMs);

/** Like `podman`, but fails with the command's output when it does not exit 0. */
export async function podmanOk(args: readonly string[], timeoutMs?: number): Promise<string> {
  const result = await podman(args, timeoutMs);
  if (result.code !== 0) {
    throw new Error(`podman ${args.join(' ')} exited ${result.code}:\n${result.stderr}${result.stdout}`);
  }
  return result.stdout.trim();
}

/**
 * The service's image for the current inputs, built once (deploy/build-image.sh skips the build when an
 * image for the same inputs exists): a cold build takes minutes on a 2-core machine.
 */
export async function serviceImage(): Promise<string> {
  const built = await run('bash', [join(REPO_ROOT, 'deploy', 'build-image.sh')], { timeoutMs: 30 * 60_000 });
  if (built.code !== 0)
    throw new Error(`deploy/build-image.sh exited ${built.code}:\n${built.stderr.slice(-6000)}`);
  return built.stdout.trim().split('\n').pop()!;
}

/** A name no other run uses (containers, volumes, compose projects). */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** The host port podman published for a container port (bound on 127.0.0.1). */
export async function publishedPort(container: string, port: number): Promise<number> {
  const mapping = await podmanOk(['port', container, `${port}/tcp`]);
  const match = /:(\d+)\s*$/m.exec(mapping);
  if (match === null) throw new Error(`no published port for ${container} ${port}: ${mapping}`);
  return Number(match[1]);
}

/** Polls `url` until it answers `status`, or fails with what it answered last. */
export async function waitForStatus(url: string, status: number, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  let last = 'nothing';
  while (Date.now() < until) {
    try {
      const reply = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      last = `${reply.status} ${await reply.text()}`;
      if (reply.status === status) return;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer ${status} within ${deadlineMs} ms; last: ${last}`);
}
