/**
 * Issue 27's archive (CHAT_NATS_ARCHIVE=object): what it costs in bytes and time against the stream
 * records it keeps. Starts its own current nats-server (.tools/) on a port the kernel picks; run:
 *
 *   node -r ./test/support/ts-register.js bench/archive-bytes.bench.ts [--records 50000] [--rooms 500] \
 *     [--text 120] [--rounds 3] [--chunk-bytes 8388608]
 *
 * Per round: a fresh stream (retention `snapshot`, archive on) takes `records` message events in
 * batches of 100 (each record its room's scope, as the service writes them), then one purge below
 * the head archives them in whole chunks and purges what the chunks hold. Reported: the stream's
 * `state.bytes` for those records (what `keep` would hold on), the chunks' bytes, the archive
 * bucket's stream bytes (chunks as object-store messages, plus their metadata), their ratios, and
 * the archive-and-purge time (median of the rounds), with the load average.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { loadavg } from 'node:os';
import { encodeEvent } from '../src/events/event-codec';
import { archiveBucket } from '../src/log/nats/archive/stream-archive';
import { JetStreamEventLog } from '../src/log/nats/jetstream-event-log';
import { snapshotBucket } from '../src/log/nats/nats-snapshot-store';
import { startSuiteNats, stopSuiteNats } from '../test/support/global-nats';
import { natsLogOptions } from '../test/support/nats-stream';
import { median } from './lib/stats';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
}

const records = arg('records', 50_000);
const rooms = arg('rooms', 500);
const textBytes = arg('text', 120);
const rounds = arg('rounds', 3);
const chunkBytes = arg('chunk-bytes', 8 * 1024 * 1024);

function payload(i: number): Buffer {
  const room = `room-${i % rooms}`;
  const text = `${i} `.padEnd(textBytes, 'x');
  const record = JSON.stringify({ seq: i, ts: '2026-11-28T00:00:00.000000Z', from: 'bench', text });
  return encodeEvent({ type: 'message.appended', room, seq: i, at: 1_795_000_000_000_000 + i, record });
}

async function round(url: string, n: number): Promise<Record<string, number>> {
  const stream = `archive-bytes-${process.pid}-${n}`;
  const log = new JetStreamEventLog(
    natsLogOptions(stream, {
      servers: [url],
      timeoutMs: 30_000,
      retention: 'snapshot',
      archive: 'object',
      archiveChunkBytes: chunkBytes,
    }),
  );
  await log.open();
  const nc = await connect({ servers: [url] });
  const jsm = await jetstreamManager(nc);
  try {
    for (let i = 0; i < records; i += 100) {
      const batch = Array.from({ length: Math.min(100, records - i) }, (_, j) => i + j);
      await log.append(batch.map(payload), {
        scopes: batch.map((k) => ['r', `room-${k % rooms}`]),
        readThrough: log.committedHead(),
      });
      while (log.committedHead() < i + batch.length) await new Promise((r) => setTimeout(r, 5));
    }
    const before = (await jsm.streams.info(stream)).state;
    const started = performance.now();
    await log.purgeBefore(records);
    const ms = performance.now() - started;
    const after = (await jsm.streams.info(stream)).state;
    const archived = after.first_seq - 1;
    const bucket = (await jsm.streams.info(`OBJ_${archiveBucket(stream)}`)).state;
    // The stream bytes of the records archived: what they took before, less what still stays.
    const streamBytes = before.bytes - after.bytes;
    await jsm.streams.delete(`OBJ_${archiveBucket(stream)}`);
    await jsm.streams.delete(`OBJ_${snapshotBucket(stream)}`).catch(() => false);
    return { archived, streamBytes, bucketBytes: bucket.bytes, bucketMessages: bucket.messages, ms };
  } finally {
    await log.close();
    await jsm.streams.delete(stream).catch(() => false);
    await nc.close();
  }
}

async function main(): Promise<void> {
  const nats = await startSuiteNats();
  try {
    const results: Array<Record<string, number>> = [];
    for (let n = 0; n < rounds; n++) results.push(await round(nats.url, n));
    const r = results[0];
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    process.stdout.write(
      `${records} records (${rooms} rooms, ${textBytes}-byte texts), chunks of ${chunkBytes} bytes; load ${load}\n` +
        `archived ${r.archived} records: stream bytes ${r.streamBytes}, archive bucket bytes ${r.bucketBytes} ` +
        `(${r.bucketMessages} messages), ratio ${(r.bucketBytes / r.streamBytes).toFixed(3)}\n` +
        `archive + purge: median ${median(results.map((x) => x.ms)).toFixed(0)} ms ` +
        `(${results.map((x) => x.ms.toFixed(0)).join(', ')}), ` +
        `${((r.archived / median(results.map((x) => x.ms))) * 1000).toFixed(0)} records/s\n`,
    );
  } finally {
    await stopSuiteNats(nats);
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exitCode = 1;
});
