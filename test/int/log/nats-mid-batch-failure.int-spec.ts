import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { deleteStream, NATS_URL, uniqueStreamName } from '../../support/nats-stream';

const ROOT = join(__dirname, '..', '..', '..');
const FIXTURE = join(__dirname, 'fixtures', 'mid-batch-failure.ts');
/** Loading the modules under ts-register takes seconds on a loaded machine; a spin never ends. */
const DEADLINE_MS = 60_000;

describe('a NATS write whose middle record fails (issue 24 item 2: the resync spin)', () => {
  const stream = uniqueStreamName('mid-batch');
  afterAll(() => deleteStream(stream));

  it(
    'refuses that write whole, keeps the event loop turning, and takes the next write',
    async () => {
      const { stdout, killed } = await new Promise<{ stdout: string; killed: boolean }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['-r', join(ROOT, 'test', 'support', 'ts-register.js'), FIXTURE, NATS_URL, stream],
          { cwd: ROOT, timeout: DEADLINE_MS, killSignal: 'SIGKILL' },
          (_, out) => resolve({ stdout: out, killed: child.killed }),
        );
      });
      // A process spinning on microtasks never prints and is killed at the deadline.
      expect(killed).toBe(false);
      const result = JSON.parse(stdout.trim()) as { refused: string; timerLateMs: number; after: unknown };
      expect(result.refused).toMatch(/max_payload/);
      expect(result.timerLateMs).toBeLessThan(1000);
      // Nothing of the refused batch was stored: the next write follows the first one directly.
      expect(result.after).toEqual({ first: 1, next: 2 });
    },
    DEADLINE_MS + 10_000,
  );
});
