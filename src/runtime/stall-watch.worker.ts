/**
 * The body of the stall watcher's worker thread, as source text: the worker is started from a string
 * (`eval: true`) so it runs the same way from dist/, from TypeScript under ts-node and inside jest.
 *
 * Shared cells (Int32Array over a SharedArrayBuffer): BEAT is bumped by the main thread on a timer;
 * STALLED_MS is set by the worker to the length of a stall once the main thread beats again; STOP
 * ends the worker. The worker sleeps with Atomics.wait on SLEEP (never notified), so it needs no
 * event loop of its own, and writes its line with writeSync while the main thread is still blocked.
 */
export const CELL = { BEAT: 0, STALLED_MS: 1, SLEEP: 2, STOP: 3, BLOCKED_NOW: 4 } as const;
export const CELLS = 5;

export interface StallWorkerData {
  readonly buffer: SharedArrayBuffer;
  readonly thresholdMs: number;
  readonly pollMs: number;
  /** File descriptor the lines go to (1: the service's log on stdout); -1 writes nothing. */
  readonly fd: number;
}

export const STALL_WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const cells = new Int32Array(workerData.buffer);
const { thresholdMs, pollMs, fd } = workerData;
const line = (level, msg) => {
  if (fd < 0) return;
  const text = JSON.stringify({ level, time: new Date().toISOString(), context: 'EventLoopWatch', msg });
  try { writeSync(fd, text + '\\n'); } catch {}
};
let beat = Atomics.load(cells, ${CELL.BEAT});
let since = Date.now();
let reported = false;
while (Atomics.load(cells, ${CELL.STOP}) === 0) {
  Atomics.wait(cells, ${CELL.SLEEP}, 0, pollMs);
  const now = Date.now();
  const current = Atomics.load(cells, ${CELL.BEAT});
  if (current !== beat) {
    if (reported) {
      Atomics.store(cells, ${CELL.STALLED_MS}, Math.min(now - since, 0x7fffffff));
      Atomics.store(cells, ${CELL.BLOCKED_NOW}, 0);
      line('warn', 'event loop running again after ' + ((now - since) / 1000).toFixed(1) + ' s blocked');
      reported = false;
    }
    beat = current;
    since = now;
  } else if (!reported && now - since >= thresholdMs) {
    reported = true;
    Atomics.store(cells, ${CELL.BLOCKED_NOW}, 1);
    line('error', 'event loop blocked for ' + ((now - since) / 1000).toFixed(1) + ' s (CHAT_EVENT_LOOP_STALL_MS=' +
      thresholdMs + '): requests, health checks, timers and signals wait until it runs again');
  }
}
`;
