import { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Exit, exitOf, runToExit, spawnListening, stopProcess } from './listening-process';

const ROOT = join(__dirname, '..', '..');
const TS_REGISTER = join(ROOT, 'test', 'support', 'ts-register.js');
const MAIN = join(ROOT, 'src', 'main.ts');
const GENEROUS_BUDGETS = {
  CHAT_RATE_READ: '1000000',
  CHAT_RATE_WRITE: '1000000',
  CHAT_RATE_ROOMS_PER_DAY: '1000000',
};

/** The real service in a child process (transpiled on the fly), listening on a free loopback port. */
export class ServiceProcess {
  private constructor(
    readonly child: ChildProcess,
    readonly baseUrl: string,
    /** What it printed until it listened (its start-up log lines). */
    readonly startupOutput: string,
  ) {}

  /** `openFiles` runs it under `ulimit -n` (through sh, which execs node: the pid stays the service's). */
  static async start(
    env: Record<string, string>,
    limits: { openFiles?: number; onOutput?: (text: string) => void } = {},
  ): Promise<ServiceProcess> {
    const node = [process.execPath, '-r', TS_REGISTER, MAIN];
    const args =
      limits.openFiles === undefined
        ? node.slice(1)
        : ['-c', `ulimit -n ${limits.openFiles} && exec "$@"`, 'sh', ...node];
    const { child, url, startOutput } = await spawnListening(args, {
      command: limits.openFiles === undefined ? undefined : '/bin/sh',
      cwd: ROOT,
      // Budgets far beyond what a suite spends unless the suite sets them (see TestApp).
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        CHAT_LOG_LEVEL: 'info',
        ...GENEROUS_BUDGETS,
        ...env,
      },
      // Generous: on a loaded 2-core machine (load average 20, the suite in a container beside other
      // runs) transpiling and starting the service took over 20 s and failed whole suites.
      timeoutMs: 90_000,
      onOutput: limits.onOutput,
    });
    return new ServiceProcess(child, url, startOutput);
  }

  /**
   * Starts several, in the order given: the first alone (from a cold transpile cache it fills the
   * cache; several cold starts at once each spend the same seconds of CPU and, on a loaded machine,
   * miss the start timeout), then the rest at once. If one fails the others are stopped before the
   * error is rethrown, so no process outlives the test.
   */
  static async startAll(starts: ReadonlyArray<() => Promise<ServiceProcess>>): Promise<ServiceProcess[]> {
    const [first, ...rest] = starts;
    const settled = [await settle(first())];
    settled.push(
      ...(settled[0].status === 'fulfilled' ? await Promise.all(rest.map((s) => settle(s()))) : []),
    );
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    if (failed === undefined) return started;
    await Promise.all(started.map((node) => node.stop()));
    throw failed.reason;
  }

  /**
   * Starts the service expecting it to refuse (bad configuration, a taken port or directory): how it
   * ended and what it wrote. `via: 'npm-start'` runs `npm start` (the launcher's checks included; dist/
   * must be built) instead of the sources.
   */
  static refusedStart(
    env: Record<string, string>,
    via: 'source' | 'npm-start' = 'source',
  ): Promise<Exit & { readonly stdout: string; readonly stderr: string }> {
    return runToExit(via === 'source' ? ['-r', TS_REGISTER, MAIN] : ['start', '--silent'], {
      command: via === 'source' ? undefined : 'npm',
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', CHAT_LOG_LEVEL: 'info', ...env },
      timeoutMs: 90_000,
    });
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed beyond what the OS already has. */
  kill9(): Promise<Exit> {
    return this.stop('SIGKILL');
  }

  /** Stops the process with `signal` (SIGKILL after a grace period): how it ended. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
    const exit = exitOf(this.child);
    await stopProcess(this.child, signal);
    return exit;
  }
}

function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return Promise.allSettled([promise]).then(([result]) => result);
}
