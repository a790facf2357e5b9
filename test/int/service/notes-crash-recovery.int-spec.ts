import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../../support/service-process';

interface Progress {
  /** Index of the last acknowledged write, -1 before the first. */
  acked: number;
  /** Index of the write in flight when the process died, if any. */
  attempted: number;
}

const valueOf = (key: string, i: number): string => `${key} value ${i} ${'·'.repeat(1 + (i % 7))}`;

/**
 * Overwrites `key` until `stop` is set, alternating GET set and POST, each write a compare-and-set
 * against the previous acknowledged value; records how far the acknowledgements got.
 */
async function writer(
  service: ServiceProcess,
  key: string,
  progress: Progress,
  stop: { now: boolean },
): Promise<void> {
  for (let i = 0; !stop.now; i++) {
    progress.attempted = i;
    const previous = i === 0 ? null : valueOf(key, i - 1);
    const condition = previous === null ? 'if_absent=1' : `if=${encodeURIComponent(previous)}`;
    try {
      const response =
        i % 2 === 0
          ? await fetch(
              service.url(`/kv/crash/${key}/set/${encodeURIComponent(valueOf(key, i))}?${condition}`),
            )
          : await fetch(service.url(`/kv/crash/${key}`), {
              method: 'POST',
              body: JSON.stringify({ value: valueOf(key, i), if: previous }),
            });
      if (response.status !== 200)
        throw new Error(`write ${i} of ${key}: ${response.status} ${await response.text()}`);
      progress.acked = i;
    } catch (error) {
      // The process died mid-request (fetch's TypeError comes from another realm than jest's): no ack.
      if ((error as Error).message === 'fetch failed') return;
      throw error;
    }
  }
}

async function readNote(service: ServiceProcess, key: string): Promise<string | null> {
  const response = await fetch(service.url(`/kv/crash/${key}`));
  if (response.status !== 200) return null;
  return (await response.text()).replace(/\n$/, '').split('\n').pop() ?? null;
}

describe('notes survive a crash of the whole service (kill -9)', () => {
  let root: string;
  let service: ServiceProcess | undefined;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'agent-chat-notes-crash-'))));
  afterEach(async () => {
    await service?.stop('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps every acknowledged note write, and compare-and-set chains continue after restart', async () => {
    const env = {
      CHAT_ROOT: root,
      CHAT_CHECKPOINT_EVENTS: '120',
      CHAT_CHECKPOINT_SECONDS: '0.2',
      CHAT_RATE_WRITE: '1000000',
      CHAT_RATE_READ: '1000000',
    };
    service = await ServiceProcess.start(env);
    const keys = ['alpha', 'beta', 'gamma', 'delta'];
    const progress = new Map(keys.map((key) => [key, { acked: -1, attempted: -1 }]));
    const stop = { now: false };
    const writers = keys.map((key) => writer(service!, key, progress.get(key)!, stop));
    await new Promise((r) => setTimeout(r, 1200));
    await service.kill9();
    stop.now = true;
    await Promise.all(writers);

    service = await ServiceProcess.start(env);
    for (const key of keys) {
      const { acked, attempted } = progress.get(key)!;
      expect(acked).toBeGreaterThan(5);
      const stored = await readNote(service, key);
      // The acknowledged write is there, or the one in flight at the kill landed after it.
      expect([valueOf(key, acked), valueOf(key, attempted)]).toContain(stored);
      const next = await fetch(
        service.url(`/kv/crash/${key}/set/after?if=${encodeURIComponent(stored ?? '')}`),
      );
      expect(next.status).toBe(200);
    }
  }, 60_000);
});
