import { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKey, SigningKey } from '../../src/identity/signing-key';
import { spawnListening, stopProcess } from '../support/listening-process';

const ROOT = join(__dirname, '..', '..');
const ENTRY = {
  source: ['-r', join(ROOT, 'test', 'support', 'ts-register.js'), join(ROOT, 'src', 'main.ts')],
  dist: ['--max-old-space-size=1024', '--max-semi-space-size=32', join(ROOT, 'dist', 'main.js')],
};

export interface TortureOptions {
  /** kill -9 count: the service is started kills + 1 times. */
  readonly kills: number;
  /** Seeds the kill points, so a failing run can be repeated. */
  readonly seed: number;
  /** `dist` starts in ~0.5 s (build first); `source` transpiles on the fly (~3 s), as the tests do. */
  readonly entry: 'source' | 'dist';
  /** The load runs for a random time in [0, maxLoadMs] before each kill. */
  readonly maxLoadMs: number;
  readonly log?: (line: string) => void;
}

export interface TortureFigures {
  readonly kills: number;
  readonly seed: number;
  /** Acknowledged writes, by kind. */
  readonly acknowledged: { readonly messages: number; readonly signed: number; readonly notes: number };
  /** Acknowledged writes missing after a restart, or present with another seq or other bytes. */
  readonly lost: number;
  /** Export lines that were not valid JSON records, or seqs that were not contiguous. */
  readonly invalidExports: number;
  readonly problems: string[];
  readonly seconds: number;
}

const ROOMS = ['alpha', 'beta', 'p-gamma'];
const SIGNED_ROOM = 'signed';
const NOTE_KEYS = ['one', 'two', 'three'];

/** Mulberry32: small, seedable, good enough for choosing kill points. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The crash test's long form (issue 11 item 6): a mixed load of unsigned messages, signed messages
 * and note writes against the real service process, killed with SIGKILL at a random point, restarted
 * on the same data directory, checked, and loaded again, `kills` times. After every restart each
 * acknowledged message is in its room's export at the seq it was acknowledged with, with the exact
 * bytes the acknowledgement carried (`posted`); each note holds its last acknowledged value or the
 * value in flight at the kill; every export is valid JSONL with contiguous seqs. Small checkpoint and
 * segment sizes put kills inside checkpoints, segment rolls and retention.
 */
export async function runCrashTorture(options: TortureOptions): Promise<TortureFigures> {
  const root = mkdtempSync(join(tmpdir(), 'agent-chat-torture-'));
  const state = new TortureState();
  const random = prng(options.seed);
  const started = Date.now();
  const env = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    CHAT_ROOT: root,
    CHAT_LOG_LEVEL: 'info', // the `listening on` line is an info line
    CHAT_RATE_READ: '1000000',
    CHAT_RATE_WRITE: '1000000',
    CHAT_RATE_ROOMS_PER_DAY: '1000000',
    CHAT_CHECKPOINT_EVENTS: '97',
    CHAT_CHECKPOINT_SECONDS: '0.25',
    CHAT_LOG_SEGMENT_BYTES: '65536',
  };
  let child: ChildProcess | undefined;
  try {
    for (let round = 0; round <= options.kills; round++) {
      const { child: started_, url } = await spawnListening(ENTRY[options.entry], {
        cwd: ROOT,
        env,
        timeoutMs: 30_000,
      });
      child = started_;
      await state.verify(url);
      if (round === options.kills) break;
      const stop = { now: false };
      const load = state.load(url, stop);
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * options.maxLoadMs)));
      await stopProcess(child, 'SIGKILL');
      stop.now = true;
      await load;
      options.log?.(`kill ${round + 1}/${options.kills}: ${JSON.stringify(state.counts())}`);
    }
    return {
      kills: options.kills,
      seed: options.seed,
      acknowledged: state.counts(),
      lost: state.lost,
      invalidExports: state.invalidExports,
      problems: state.problems.slice(0, 20),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    if (child) await stopProcess(child, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
}

interface NoteProgress {
  acked: string | null;
  inFlight: string | null;
  next: number;
}

/** What the load was told (acknowledgements) and what the checks found. */
class TortureState {
  /** room → seq → the stored line the acknowledgement carried. */
  private readonly acked = new Map<string, Map<number, string>>();
  private readonly notes = new Map<string, NoteProgress>(
    NOTE_KEYS.map((key) => [key, { acked: null, inFlight: null, next: 0 }]),
  );
  private readonly key: SigningKey = generateSigningKey();
  /** Strictly increasing across rounds (a write in flight at a kill may have burned its nonce). */
  private nonce = BigInt(Date.now()) * 1000n;
  private sequence = 0;
  private signedCount = 0;
  lost = 0;
  invalidExports = 0;
  readonly problems: string[] = [];

  counts(): TortureFigures['acknowledged'] {
    let messages = 0;
    for (const [room, seqs] of this.acked) if (room !== SIGNED_ROOM) messages += seqs.size;
    const notes = [...this.notes.values()].reduce((sum, note) => sum + note.next, 0);
    return { messages, signed: this.signedCount, notes };
  }

  /** Runs the mixed load until `stop` is set or the service dies. */
  async load(url: string, stop: { now: boolean }): Promise<void> {
    const loop = async (step: () => Promise<void>): Promise<void> => {
      while (!stop.now) {
        try {
          await step();
        } catch {
          return; // the process died mid-request: that write was never acknowledged
        }
      }
    };
    await Promise.all([
      ...ROOMS.map((room) => loop(() => this.postMessage(url, room))),
      loop(() => this.postSigned(url)),
      ...NOTE_KEYS.map((key) => loop(() => this.writeNote(url, key))),
    ]);
  }

  private async postMessage(url: string, room: string): Promise<void> {
    const text = `${room} message ${this.sequence++} ·`;
    await this.ackMessage(
      room,
      await fetch(`${url}/r/${room}?format=json`, {
        method: 'POST',
        body: JSON.stringify({ from: 'torture', text }),
      }),
    );
  }

  private async postSigned(url: string): Promise<void> {
    const nonce = (this.nonce += 1n).toString();
    const text = `signed ${this.sequence++}`;
    const sig = this.key.sign(`${SIGNED_ROOM}|${nonce}|${text}`);
    const response = await fetch(`${url}/r/${SIGNED_ROOM}?format=json`, {
      method: 'POST',
      body: JSON.stringify({ did: this.key.did, sig, nonce, text }),
    });
    if (await this.ackMessage(SIGNED_ROOM, response)) this.signedCount++;
  }

  /** Records an acknowledged message by the exact stored line its reply carries; true if acked. */
  private async ackMessage(room: string, response: Response): Promise<boolean> {
    const body = await response.text();
    if (response.status !== 200) {
      this.problems.push(`write to ${room} answered ${response.status}: ${body.slice(0, 120)}`);
      return false;
    }
    const at = body.lastIndexOf(',"posted":');
    const line = body.slice(at + ',"posted":'.length, body.trimEnd().length - 1);
    const { seq } = JSON.parse(line) as { seq: number };
    let seqs = this.acked.get(room);
    if (seqs === undefined) this.acked.set(room, (seqs = new Map()));
    seqs.set(seq, line);
    return true;
  }

  private async writeNote(url: string, key: string): Promise<void> {
    const note = this.notes.get(key)!;
    const value = `${key} value ${note.next} ${'·'.repeat(1 + (note.next % 5))}`;
    note.inFlight = value;
    const response = await fetch(`${url}/kv/torture/${key}`, {
      method: 'POST',
      body: JSON.stringify({ value }),
    });
    await response.text();
    if (response.status !== 200) {
      this.problems.push(`note ${key} answered ${response.status}`);
      return;
    }
    note.acked = value;
    note.inFlight = null;
    note.next++;
  }

  /** Checks every acknowledged write and every export against the restarted service. */
  async verify(url: string): Promise<void> {
    for (const room of [...ROOMS, SIGNED_ROOM, 'events']) {
      const exported = await (await fetch(`${url}/r/${room}/export`)).text();
      const lines = exported === '' ? [] : exported.split('\n');
      if (lines.length > 0 && lines.pop() !== '') this.invalid(`${room}: export ends mid-line`);
      const stored = new Map<number, string>();
      let previous: number | null = null;
      for (const line of lines) {
        let seq: unknown;
        try {
          seq = (JSON.parse(line) as { seq?: unknown }).seq;
        } catch {
          this.invalid(`${room}: not JSON: ${line.slice(0, 80)}`);
          continue;
        }
        if (typeof seq !== 'number' || (previous !== null && seq !== previous + 1))
          this.invalid(`${room}: seq ${String(seq)} after ${previous}`);
        previous = typeof seq === 'number' ? seq : previous;
        stored.set(seq as number, line);
      }
      for (const [seq, line] of this.acked.get(room) ?? []) {
        if (stored.get(seq) === line) continue;
        this.lost++;
        this.problems.push(
          `${room} seq ${seq}: acknowledged ${line.slice(0, 80)}, found ${stored.get(seq)?.slice(0, 80)}`,
        );
      }
    }
    for (const [key, note] of this.notes) {
      const response = await fetch(`${url}/kv/torture/${key}`);
      const body = await response.text();
      const value = response.status === 200 ? body.replace(/\n$/, '').split('\n').pop()! : null;
      if (value === note.acked) continue;
      if (value !== null && value === note.inFlight) {
        note.acked = value; // the write in flight at the kill landed: it is the new baseline
        note.inFlight = null;
        note.next++;
        continue;
      }
      this.lost++;
      this.problems.push(`note ${key}: acknowledged ${note.acked}, found ${value}`);
    }
  }

  private invalid(problem: string): void {
    this.invalidExports++;
    this.problems.push(problem);
  }
}
