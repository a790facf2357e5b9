import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopProcess } from '../../support/listening-process';
import { makeTempDir } from '../../support/temp-dir';

const ROOT = join(__dirname, '..', '..', '..');
const TS_REGISTER = join(ROOT, 'test', 'support', 'ts-register.js');
const MAIN = join(ROOT, 'src', 'main.ts');
/**
 * Kills per run: each restart is a full service start (~3 s, 13 s on a loaded box), so the suite
 * runs a few; `AGENT_CHAT_RESTART_KILLS=20` repeats the 20-kill figure.
 */
const KILLS = Number(process.env.AGENT_CHAT_RESTART_KILLS ?? 6);
/** Every `sh`/`sleep` parent started, killed at the end (which lets init reap their zombies). */
const parents: ChildProcess[] = [];

/**
 * The real service under a parent that never reaps it: sh starts it in the background and execs
 * `sleep`, which never calls wait(). Killed with -9, the service stays a zombie (its PID alive, its
 * start time unchanged) for as long as the parent lives: the state a supervisor that has not reaped
 * yet leaves, held for the whole test instead of for a moment.
 */
function startUnreaped(root: string): Promise<{ parent: ChildProcess; pid: number }> {
  const parent = spawn(
    '/bin/sh',
    ['-c', '"$@" & exec sleep 600', 'sh', process.execPath, '-r', TS_REGISTER, MAIN],
    {
      cwd: ROOT,
      env: { ...process.env, CHAT_ROOT: root, PORT: '0', HOST: '127.0.0.1', CHAT_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  parents.push(parent);
  let output = '';
  return new Promise((resolve, reject) => {
    // `sleep` holds the pipes open, so the service's exit shows only as its last words.
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${output}`)), 90_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (/listening on|locked by|Error/.test(output)) {
        clearTimeout(timer);
        parent.stdout!.resume();
        parent.stderr!.resume();
        if (!output.includes('listening on')) reject(new Error(output));
        // The LOCK file names the service (the child we hold is its parent, `sleep`).
        else resolve({ parent, pid: Number(readFileSync(join(root, 'LOCK'), 'utf8').split(' ')[0]) });
      }
    };
    parent.stdout!.on('data', onData);
    parent.stderr!.on('data', onData);
  });
}

function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
}

describe('a restart right after kill -9 (issue 24 item 5)', () => {
  const dir = makeTempDir('agent-chat-restart');
  afterAll(async () => {
    // Killing a parent hands its zombie to init, which reaps it; a live service goes with SIGKILL too.
    for (const parent of parents) await stopProcess(parent, 'SIGKILL');
    dir.remove();
  });

  it(
    `is never refused while the killed holder is an unreaped zombie (${KILLS} kills)`,
    async () => {
      let current = await startUnreaped(dir.path);
      const refusals: string[] = [];
      for (let kill = 0; kill < KILLS; kill++) {
        process.kill(current.pid, 'SIGKILL');
        while (processState(current.pid) !== 'Z') await new Promise((resolve) => setTimeout(resolve, 5));
        try {
          const next = await startUnreaped(dir.path);
          expect(processState(current.pid)).toBe('Z'); // the holder was a zombie all along
          current = next;
        } catch (error) {
          refusals.push(
            (error as Error).message.split('\n').find((line) => line.includes('locked')) ??
              (error as Error).message,
          );
          break; // the directory stays refused while the zombie is there: one refusal tells it all
        }
      }
      expect(refusals).toEqual([]);
      process.kill(current.pid, 'SIGKILL');
    },
    60_000 + KILLS * 30_000,
  ); // one service start per kill, generous for a loaded machine
});
