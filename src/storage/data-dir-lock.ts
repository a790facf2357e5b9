import { createHash } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import { DataDirLockedError } from './data-dir-locked.error';

const LOCK_FILE = 'LOCK';

/** `<pid> <start time in clock ticks since boot>`: the start time tells a live holder from a reused PID. */
function processStamp(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Field 22 (starttime); fields 3.. follow the parenthesised command name, which may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(pid: number, stamp: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = processStamp(pid);
  return stamp === undefined || now === null || now === stamp;
}

function readHolder(path: string): { pid: number; stamp?: string } | null {
  try {
    const [pid, stamp] = readFileSync(path, 'utf8').trim().split(/\s+/);
    return /^\d+$/.test(pid) ? { pid: Number(pid), stamp } : null;
  } catch {
    return null;
  }
}

/**
 * Binds a Linux abstract-namespace socket named after the directory's real path. The kernel refuses a
 * second bind while the holder lives and frees the name the instant it dies (kill -9 included, before
 * the dead process is reaped), so
 * this is the advisory lock Node lacks (no flock): atomic, and never stale. Resolves false when the
 * name is taken; on platforms without abstract sockets it resolves true and the PID file decides.
 */
function bindAbstractSocket(dir: string): Promise<{ taken: boolean; server: Server | null }> {
  if (process.platform !== 'linux') return Promise.resolve({ taken: false, server: null });
  const name = `\0agent-chat-lock-${createHash('sha256').update(dir).digest('hex').slice(0, 40)}`;
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      resolve({ taken: error.code === 'EADDRINUSE', server: null }),
    );
    server.listen({ path: name, exclusive: true }, () => {
      server.unref();
      resolve({ taken: false, server });
    });
  });
}

/**
 * One owner per data directory (issue 11). The lock is the abstract socket above; `<root>/LOCK` names
 * the holder (`<pid> <start time>`) so a refused process can say who holds the directory, and is the
 * whole lock where abstract sockets do not exist (a PID file with a liveness check: a holder that died
 * leaves a stale file, which the next owner replaces). Released on `release()` and at process exit.
 */
export class DataDirLock {
  private released = false;

  private constructor(
    private readonly path: string,
    private readonly server: Server | null,
  ) {
    process.once('exit', () => this.release());
  }

  /** Takes the lock on `root` (created if missing) or throws DataDirLockedError naming the holder. */
  static async acquire(root: string): Promise<DataDirLock> {
    mkdirSync(root, { recursive: true });
    const dir = realpathSync(root);
    const path = join(dir, LOCK_FILE);
    const socket = await bindAbstractSocket(dir);
    const holder = readHolder(path);
    // Where the socket exists it alone decides: a holder killed with -9 frees its name at once but stays
    // a zombie (its PID alive, its start time unchanged) until its parent reaps it, which made restarts
    // right after a kill fail for seconds (issue 24 item 5). The PID file decides only without it.
    const heldElsewhere =
      socket.server === null &&
      holder !== null &&
      holder.pid !== process.pid &&
      isAlive(holder.pid, holder.stamp);
    if (socket.taken || heldElsewhere) {
      socket.server?.close();
      throw new DataDirLockedError(dir, holder?.pid ?? null);
    }
    const fd = openSync(path, 'w');
    try {
      writeSync(fd, `${process.pid} ${processStamp(process.pid) ?? ''}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return new DataDirLock(path, socket.server);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (readHolder(this.path)?.pid === process.pid) {
      try {
        unlinkSync(this.path);
      } catch {
        // already gone: nothing to release
      }
    }
    this.server?.close();
  }
}
