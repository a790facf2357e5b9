import { join } from 'node:path';
import { ServiceProcess } from '../../../support/service-process';
import { makeTempDir } from '../../../support/temp-dir';
import { WINDOWS } from './lifecycle.model';

const CLOCK_SHIFT_PRELOAD = join(__dirname, '..', '..', '..', 'support', 'clock-shift.preload.js');

export interface Reply {
  readonly status: number;
  readonly body: string;
}

/**
 * The real service under test: one process on a temporary data directory, restarted gracefully,
 * after `kill -9`, or later in time (its clock shifted forward by test/support/clock-shift.preload.js).
 * Reaper passes every 0.2 s and checkpoints every 15 events, so restarts replay from a checkpoint
 * plus a tail as often as from the start.
 */
export class LifecycleSystem {
  private shiftMs = 0;

  private constructor(
    private service: ServiceProcess,
    private readonly dir: { readonly path: string; remove(): void },
  ) {}

  static async start(): Promise<LifecycleSystem> {
    const dir = makeTempDir('agent-chat-lifecycle');
    try {
      return new LifecycleSystem(await ServiceProcess.start(LifecycleSystem.env(dir.path, 0)), dir);
    } catch (error) {
      dir.remove();
      throw error;
    }
  }

  private static env(root: string, shiftMs: number): Record<string, string> {
    return {
      CHAT_ROOT: root,
      CHAT_RETENTION_SECONDS: String(WINDOWS.retentionSeconds),
      CHAT_STILLBORN_SECONDS: String(WINDOWS.stillbornSeconds),
      CHAT_EPHEMERAL_TTL_SECONDS: String(WINDOWS.ephemeralTtlSeconds),
      CHAT_REAP_EVERY_SECONDS: '0.2',
      CHAT_DUPE_FILTER_SECONDS: '0',
      CHAT_CHECKPOINT_EVENTS: '15',
      CHAT_VERIFY_WORKERS: '0',
      NODE_OPTIONS: `--require "${CLOCK_SHIFT_PRELOAD}"`,
      AGENT_CHAT_TEST_CLOCK_SHIFT_MS: String(shiftMs),
    };
  }

  /** Stops the service (SIGTERM, or SIGKILL for a crash) and starts it again on the same data. */
  async restart(how: 'graceful' | 'kill9', laterByMs = 0): Promise<void> {
    await this.service.stop(how === 'kill9' ? 'SIGKILL' : 'SIGTERM');
    this.shiftMs += laterByMs;
    this.service = await ServiceProcess.start(LifecycleSystem.env(this.dir.path, this.shiftMs));
  }

  async get(path: string): Promise<Reply> {
    const response = await fetch(this.service.url(path));
    return { status: response.status, body: await response.text() };
  }

  async post(path: string, body: unknown): Promise<Reply> {
    const response = await fetch(this.service.url(path), { method: 'POST', body: JSON.stringify(body) });
    return { status: response.status, body: await response.text() };
  }

  async dispose(): Promise<void> {
    try {
      await this.service.stop('SIGKILL');
    } finally {
      this.dir.remove();
    }
  }
}
