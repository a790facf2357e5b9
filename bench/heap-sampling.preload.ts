/**
 * Where a running service allocates, garbage included: preload this into `node dist/main.js` and it
 * records V8's sampling heap profile for a window of the run, then writes it as a `.heapprofile`
 * (Chrome DevTools → Memory → Load). `--heap-prof` cannot answer that question: it keeps only the
 * objects still alive when the profile ends, and request garbage dies young.
 *
 *   HEAP_SAMPLE_OUT=/tmp/writes.heapprofile HEAP_SAMPLE_DELAY_MS=3000 HEAP_SAMPLE_MS=8000 \
 *     node -r ./test/support/ts-register.js -r ./bench/heap-sampling.preload.ts dist/main.js
 *
 * Start the load before the delay ends and keep it running through the window (bench/README,
 * "Profiling"). Timers are unref'd, so the preload never keeps a stopping service alive.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const out = process.env.HEAP_SAMPLE_OUT ?? `heap-${process.pid}.heapprofile`;
const delayMs = Number(process.env.HEAP_SAMPLE_DELAY_MS ?? 3000);
const windowMs = Number(process.env.HEAP_SAMPLE_MS ?? 8000);
/** Bytes between samples: V8's default is 32 KiB; a write allocates tens of KiB, so sample finer. */
const samplingInterval = Number(process.env.HEAP_SAMPLE_INTERVAL ?? 8192);

const session = new Session();
session.connect();
const post = <T>(method: string, params: object = {}): Promise<T> =>
  new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
  );

async function sample(): Promise<void> {
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval,
    // Without these two, samples of collected objects are dropped: exactly the request garbage.
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  process.stderr.write(`heap sampling for ${windowMs} ms\n`);
  await new Promise((resolve) => setTimeout(resolve, windowMs).unref());
  const { profile } = await post<{ profile: unknown }>('HeapProfiler.stopSampling');
  writeFileSync(out, JSON.stringify(profile));
  process.stderr.write(`heap profile written to ${out}\n`);
}

setTimeout(() => {
  sample().catch((error: Error) => process.stderr.write(`heap sampling failed: ${error.stack}\n`));
}, delayMs).unref();
