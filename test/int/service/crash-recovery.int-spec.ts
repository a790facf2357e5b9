import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../../support/service-process';
import { runCrashTorture } from '../../torture/crash-torture';

interface Posted {
  seq: number;
  text: string;
}

/** Writes to `room` until `stop` is set; records every acknowledged (200) write. */
async function writer(
  service: ServiceProcess,
  room: string,
  acked: Posted[],
  stop: { now: boolean },
): Promise<void> {
  for (let i = 0; !stop.now; i++) {
    try {
      const response = await fetch(service.url(`/r/${room}?format=json`), {
        method: 'POST',
        body: JSON.stringify({ from: 'crash', text: `${room} message ${i}` }),
      });
      if (response.status !== 200) continue;
      const body = (await response.json()) as { posted: Posted };
      acked.push({ seq: body.posted.seq, text: body.posted.text });
    } catch {
      return; // the process died mid-request: that write was never acknowledged
    }
  }
}

describe('crash recovery of the whole service (kill -9)', () => {
  let root: string;
  let service: ServiceProcess | undefined;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'agent-chat-crash-'))));
  afterEach(async () => {
    await service?.stop('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps every acknowledged write with its seq, and export bytes stay a prefix', async () => {
    // Small checkpoint cadence so the crash lands between checkpoints with ring files ahead of them.
    const env = { CHAT_ROOT: root, CHAT_CHECKPOINT_EVENTS: '150', CHAT_CHECKPOINT_SECONDS: '0.2' };
    service = await ServiceProcess.start(env);
    const rooms = ['alpha', 'beta', 'gamma', 'delta'];
    const acked = new Map(rooms.map((room) => [room, [] as Posted[]]));
    const stop = { now: false };
    const writers = rooms.map((room) => writer(service!, room, acked.get(room)!, stop));
    await new Promise((r) => setTimeout(r, 700));
    const exportBefore = Buffer.from(await (await fetch(service.url('/r/alpha/export'))).arrayBuffer());
    await new Promise((r) => setTimeout(r, 500));
    await service.kill9();
    stop.now = true;
    await Promise.all(writers);

    service = await ServiceProcess.start(env);
    for (const room of rooms) {
      const exported = await (await fetch(service.url(`/r/${room}/export`))).text();
      const stored = new Map(
        exported
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as Posted)
          .map((record) => [record.seq, record.text]),
      );
      const mine = acked.get(room)!;
      expect(mine.length).toBeGreaterThan(5);
      for (const write of mine) expect(stored.get(write.seq)).toBe(write.text);
      const seqs = [...stored.keys()];
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i)); // contiguous, no duplicates
    }
    const exportAfter = Buffer.from(await (await fetch(service.url('/r/alpha/export'))).arrayBuffer());
    expect(exportAfter.subarray(0, exportBefore.length).equals(exportBefore)).toBe(true);

    // The service keeps counting from where the log says it is.
    const next = await fetch(service.url('/r/alpha?format=json'), {
      method: 'POST',
      body: JSON.stringify({ from: 'after', text: 'after the crash' }),
    });
    const lastAcked = Math.max(...acked.get('alpha')!.map((w) => w.seq));
    expect(((await next.json()) as { posted: Posted }).posted.seq).toBeGreaterThan(lastAcked);
  }, 60_000);
});

describe('repeated kill -9 under a mixed load (short form of npm run test:crash-long)', () => {
  it('loses no acknowledged message, signed message or note over 3 kills, and exports stay valid JSONL', async () => {
    const figures = await runCrashTorture({ kills: 3, seed: 7, maxLoadMs: 900, entry: 'source' });
    expect(figures.problems).toEqual([]);
    expect([figures.lost, figures.invalidExports]).toEqual([0, 0]);
    // The load really ran between the kills (a kill may land at 0 ms, so the floor is low)
    const { messages, signed, notes } = figures.acknowledged;
    expect(messages + signed + notes).toBeGreaterThan(20);
  }, 120_000);
});

describe('graceful shutdown of the service process', () => {
  it('answers a parked long-poll at once on SIGTERM, checkpoints and exits 0', async () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-chat-term-'));
    try {
      const service = await ServiceProcess.start({ CHAT_ROOT: root, CHAT_CHECKPOINT_SECONDS: '3600' });
      await fetch(service.url('/r/calm/say/a/hello'));
      const parked = fetch(service.url('/r/calm?since=1&wait=10&format=json')).then((r) => r.json());
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      const exited = new Promise<[number | null, string | null]>((resolve) =>
        service.child.once('exit', (code, signal) => resolve([code, signal])),
      );
      service.child.kill('SIGTERM');
      expect(await parked).toMatchObject({ count: 0, wait_held: true });
      // A graceful stop is a success: exit code 0 once the shutdown hooks are done (issue 25).
      expect(await exited).toEqual([0, null]);
      expect(Date.now() - started).toBeLessThan(5000);
      const { readdirSync } = await import('node:fs');
      expect(readdirSync(join(root, 'checkpoints')).some((name) => name.endsWith('.ckpt'))).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);
});
