import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

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
  ) {}

  static start(env: Record<string, string>): Promise<ServiceProcess> {
    const child = spawn(process.execPath, ['-r', TS_REGISTER, MAIN], {
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
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), 20_000);
      const onData = (chunk: Buffer): void => {
        output += chunk.toString('utf8');
        const match = /listening on (http:\/\/[^ ]+) /.exec(output);
        if (match) {
          clearTimeout(timer);
          child.stdout?.off('data', onData);
          child.stdout?.resume();
          resolve(new ServiceProcess(child, match[1]));
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`service exited with ${code}:\n${output}`));
      });
    });
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed beyond what the OS already has. */
  kill9(): Promise<void> {
    return this.stop('SIGKILL');
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill(signal);
    });
  }
}
