import { ChildProcess, spawn } from 'node:child_process';

export interface Listening {
  readonly child: ChildProcess;
  /** The `http://host:port` the process printed in its `listening on <url>` line. */
  readonly url: string;
  /** Milliseconds from spawn to that line. */
  readonly readyMs: number;
  /** What it wrote on stdout and stderr up to and including that line. */
  readonly startOutput: string;
}

const LISTENING = /listening on (http:\/\/[0-9.:]+)/;

/** How a test process is started. */
export interface SpawnOptions {
  readonly cwd: string;
  readonly env: Record<string, string | undefined>;
  readonly timeoutMs: number;
  /** The executable (default: this node); the npm-start tests run `npm` itself. */
  readonly command?: string;
  /** Sees its output as it comes, until it listens (a test acting while the process starts). */
  readonly onOutput?: (text: string) => void;
}

/**
 * Spawns `node <args>` and resolves once it prints `listening on <url>` (the service's Main logger
 * and the benchmark's baseline both do); rejects with its output if it exits or times out first.
 * Used by the tests' ServiceProcess and the benchmark's ChildServer.
 */
export function spawnListening(args: readonly string[], options: SpawnOptions): Promise<Listening> {
  const started = process.hrtime.bigint();
  const child = spawn(options.command ?? process.execPath, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // Never leave a half-started process behind: it would hold ports and CPU for the rest of the run.
      child.kill('SIGKILL');
      reject(new Error(`process did not start within ${options.timeoutMs} ms:\n${output.slice(-4000)}`));
    }, options.timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      options.onOutput?.(output);
      const match = LISTENING.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
      resolve({ child, url: match[1], readyMs, startOutput: output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited with ${code}:\n${output.slice(-4000)}`));
    });
  });
}

/** How long a stopped process may take to exit before it is killed outright. */
export const STOP_GRACE_MS = 10_000;

/**
 * Sends `signal` and resolves when the process has exited (at once if it already has). A process that
 * is still there after `graceMs` gets SIGKILL: one stuck process (a spinning event loop ignores
 * SIGTERM) must fail its own test, never hang the whole suite.
 */
export function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = STOP_GRACE_MS,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const escalate =
      signal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
    child.once('exit', () => {
      if (escalate) clearTimeout(escalate);
      resolve();
    });
    child.kill(signal);
  });
}

/** Resolves with how the child ended, once it has (at once if it already has). */
export function exitOf(child: ChildProcess): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** How a process ended: its exit code, or the signal that ended it. */
export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * Runs a process that is expected to end by itself (a refused start): how it ended and everything it
 * wrote on stdout and stderr. Killed after `timeoutMs`, so a process that starts after all fails its
 * test instead of hanging the run.
 */
export function runToExit(
  args: readonly string[],
  options: SpawnOptions,
): Promise<Exit & { readonly stdout: string; readonly stderr: string }> {
  const child = spawn(options.command ?? process.execPath, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
