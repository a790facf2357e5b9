import { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { spawnListening, stopProcess } from '../../test/support/listening-process';

export const PROJECT = join(__dirname, '..', '..');
export const TS_REGISTER = join(PROJECT, 'test', 'support', 'ts-register.js');

/** A server in a child process that prints `listening on <url>` when ready. */
export class ChildServer {
  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly readyMs: number,
    /** What it printed until it listened. */
    readonly startupOutput: string,
  ) {}

  get pid(): number {
    return this.child.pid!;
  }

  /**
   * The service as users run it: `node dist/main.js` (build first with scripts/ensure-built.js).
   * `build`: another build directory of this checkout (an A/B of two builds in one run).
   */
  static service(env: Record<string, string>, build = 'dist'): Promise<ChildServer> {
    // As `npm start` runs it: V8's heap limited to CHAT_HEAP_MB (src/config/heap-budget.ts).
    const heapMb = env.CHAT_HEAP_MB ?? '1024';
    return ChildServer.start(
      [`--max-old-space-size=${heapMb}`, '--max-semi-space-size=32', join(PROJECT, build, 'main.js')],
      {
        PORT: '0',
        HOST: '127.0.0.1',
        CHAT_LOG_LEVEL: 'info',
        ...env,
      },
    );
  }

  /** The bare-Fastify baseline (bench/lib/baseline-server.ts). */
  static baseline(): Promise<ChildServer> {
    return ChildServer.start(['-r', TS_REGISTER, join(PROJECT, 'bench', 'lib', 'baseline-server.ts')], {});
  }

  /** `node`: the node binary to run (default: the one running this process). */
  static async start(args: string[], env: Record<string, string>, node?: string): Promise<ChildServer> {
    const {
      child,
      url,
      readyMs,
      startOutput: output,
    } = await spawnListening(args, {
      command: node,
      cwd: PROJECT,
      env: { ...process.env, ...env },
      timeoutMs: 600_000,
    });
    return new ChildServer(child, url, readyMs, output);
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    return stopProcess(this.child, signal);
  }
}
