import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const PROJECT = join(__dirname, '..', '..');
export const TS_REGISTER = join(PROJECT, 'test', 'support', 'ts-register.js');

/** A server in a child process that prints `listening on <url>` when ready. */
export class ChildServer {
  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly readyMs: number,
  ) {}

  get pid(): number {
    return this.child.pid!;
  }

  /** The service as users run it: `node dist/main.js` (build first with scripts/ensure-built.js). */
  static service(env: Record<string, string>): Promise<ChildServer> {
    // As `npm start` runs it: V8's heap limited to CHAT_HEAP_MB (src/config/heap-budget.ts).
    const heapMb = env.CHAT_HEAP_MB ?? '1024';
    return ChildServer.start([`--max-old-space-size=${heapMb}`, join(PROJECT, 'dist', 'main.js')], {
      PORT: '0',
      HOST: '127.0.0.1',
      CHAT_LOG_LEVEL: 'info',
      ...env,
    });
  }

  /** The bare-Fastify baseline (bench/lib/baseline-server.ts). */
  static baseline(): Promise<ChildServer> {
    return ChildServer.start(['-r', TS_REGISTER, join(PROJECT, 'bench', 'lib', 'baseline-server.ts')], {});
  }

  static start(args: string[], env: Record<string, string>): Promise<ChildServer> {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, {
      cwd: PROJECT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 600_000);
      const onData = (chunk: Buffer): void => {
        output += chunk.toString('utf8');
        const match = /listening on (http:\/\/[0-9.:]+)/.exec(output);
        if (!match) return;
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
        resolve(new ChildServer(child, match[1], readyMs));
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}:\n${output.slice(-4000)}`));
      });
    });
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill(signal);
    });
  }
}
