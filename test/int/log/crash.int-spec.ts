import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { makeTempDir } from '../../support/temp-dir';
import { openLog, readAll } from './log-test-kit';

const ROOT = join(__dirname, '../../..');
const TS_REGISTER = join(ROOT, 'test/support/ts-register.js');
const CHILD = join(__dirname, 'fixtures/crash-appender.ts');

interface ChildRun {
  /** offset -> payload of every record the child printed as acknowledged. */
  readonly acked: Map<number, string>;
  readonly stderr: string;
}

/**
 * Runs the appender child until it has been acknowledging appends for `runMs`, then SIGKILLs it.
 * Only complete lines count: a line cut by the kill was never fully reported.
 */
async function runAndKill(dir: string, runMs: number): Promise<ChildRun> {
  const child: ChildProcess = spawn(process.execPath, ['-r', TS_REGISTER, CHILD, dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let timer: NodeJS.Timeout | undefined;
  // Never leave a child behind: if it hangs before acknowledging anything, kill it anyway (the test
  // then fails on its empty acknowledgement list).
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!timer && /^\d+ /m.test(stdout)) timer = setTimeout(() => child.kill('SIGKILL'), runMs);
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  clearTimeout(guard);
  if (signal !== 'SIGKILL') throw new Error(`child exited on its own (code ${code}): ${stderr}`);

  const acked = new Map<number, string>();
  const complete = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
  for (const line of complete.split('\n')) {
    const match = /^(\d+) (\S+)$/.exec(line);
    if (match) acked.set(Number(match[1]), match[2]);
  }
  return { acked, stderr };
}

describe('crash: SIGKILL while appending with fsync always', () => {
  let dir: ReturnType<typeof makeTempDir>;

  beforeEach(() => {
    dir = makeTempDir('event-log-crash');
  });

  afterEach(() => dir.remove());

  it('given two kill-and-restart rounds, then every acknowledged record is readable with its payload', async () => {
    // A SIGKILL loses the process, not the page cache: this proves the ack/commit bookkeeping and
    // recovery (torn batches, kills during rolls), not what survives a power cut.
    const first = await runAndKill(dir.path, 300);
    const second = await runAndKill(dir.path, 300); // recovers the first crash, then crashes again
    expect(first.acked.size).toBeGreaterThan(0);
    expect(second.acked.size).toBeGreaterThan(0);

    const { log } = await openLog(dir.path);
    try {
      const stored = new Map((await readAll(log)).map((r) => [r.offset, r.payload.toString()]));
      for (const run of [first, second]) {
        for (const [offset, payload] of run.acked) expect(stored.get(offset)).toBe(payload);
      }
      // Offsets are dense from 0 to the head: nothing acknowledged fell into a hole.
      expect([...stored.keys()]).toEqual(Array.from({ length: log.head() }, (_, i) => i));
      const highest = Math.max(...second.acked.keys());
      expect(log.head()).toBeGreaterThan(highest);
    } finally {
      await log.close();
    }
  });
});
