import { jetstream, jetstreamManager, JetStreamManager } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { Objm, setSha256Backend } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';
import { ChatEvent } from '../../../src/events/chat-event';
import { encodeEvent } from '../../../src/events/event-codec';
import { LogScope } from '../../../src/log/event-log';
import { ArchiveDamagedError } from '../../../src/log/nats/archive/archive-damaged.error';
import { ArchiveGapError } from '../../../src/log/nats/archive/archive-gap.error';
import { archiveBucket } from '../../../src/log/nats/archive/stream-archive';
import { useNodeSha256 } from '../../../src/log/nats/object-store-connection';
import { JetStreamEventLog } from '../../../src/log/nats/jetstream-event-log';
import { NatsLogOptions } from '../../../src/log/nats/nats-log.options';
import { StreamRecord } from '../../../src/log/nats/stream-reader';
import { printStreamEvents } from '../../../src/tools/events.cli';
import { withNatsHistory } from '../../../src/tools/nats-history';
import { deleteStream, natsLogOptions, NATS_URL, uniqueStreamName } from '../../support/nats-stream';

const RECORDS = 240;
const AT = 1_795_000_000_000_000;

/** Record i: a message in one of 5 rooms or a note, ~100–300 bytes, the same on every stream. */
function write(i: number): { payload: Buffer; scope: LogScope } {
  const room = `room-${i % 5}`;
  if (i % 7 === 3) {
    const event: ChatEvent = {
      type: 'note.written',
      ns: 'n',
      key: `k${i % 3}`,
      value: 'v'.repeat(i % 200),
      at: AT + i,
    };
    return { payload: encodeEvent(event), scope: ['n', 'n', `k${i % 3}`] };
  }
  const record = JSON.stringify({
    seq: i,
    ts: '2026-11-27T12:00:00.000000Z',
    from: 'a',
    text: 'x'.repeat(i % 150),
  });
  const event: ChatEvent = { type: 'message.appended', room, seq: i, at: AT + i, record };
  return { payload: encodeEvent(event), scope: ['r', room] };
}

async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every record of a stream's history from offset 0 (archive and stream), its stream name made neutral. */
async function history(options: NatsLogOptions): Promise<StreamRecord[]> {
  return withNatsHistory(options, 0, async ({ records }) => {
    const all: StreamRecord[] = [];
    for await (const r of records) {
      all.push({ ...r, subject: r.subject.replace(options.stream, 'S'), payload: Buffer.from(r.payload) });
    }
    return all;
  });
}

async function eventLines(options: NatsLogOptions): Promise<string[]> {
  const lines: string[] = [];
  await printStreamEvents(options, {}, undefined, (line) => lines.push(line));
  return lines;
}

/**
 * Issue 27's archive (CHAT_NATS_ARCHIVE=object, src/log/nats/archive/FORMAT.md) on a real
 * nats-server: what a purge removes is first copied into chunks, the tools read the chunks below the
 * stream and the stream above as one history, byte for byte what a `keep` stream holds; a missing or
 * damaged chunk is refused by name; a failed archive write purges nothing.
 */
describe('the stream archive (real nats-server)', () => {
  const kept = uniqueStreamName('archive-keep');
  const archived = uniqueStreamName('archive-on');
  const sealed = uniqueStreamName('archive-sealed');
  const logs: JetStreamEventLog[] = [];
  const errors: string[] = [];
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  const options = (stream: string, retention: 'keep' | 'snapshot'): NatsLogOptions =>
    natsLogOptions(stream, {
      retention,
      archive: retention === 'snapshot' ? 'object' : 'off',
      archiveChunkBytes: 2048,
      logger: { log: () => undefined, warn: (m) => errors.push(m), error: (m) => errors.push(m) },
    });
  const open = async (stream: string, retention: 'keep' | 'snapshot') => {
    const log = new JetStreamEventLog(options(stream, retention));
    logs.push(log);
    await log.open();
    return log;
  };
  const fill = async (log: JetStreamEventLog) => {
    for (let i = 0; i < RECORDS; i += 20) {
      const batch = Array.from({ length: 20 }, (_, j) => write(i + j));
      await log.append(
        batch.map((w) => w.payload),
        { scopes: batch.map((w) => w.scope), readThrough: log.committedHead() },
      );
      await until(`${i + 20} records applied`, () => log.committedHead() === i + 20);
    }
  };
  const bucket = async (stream: string) => new Objm(jetstream(nc)).open(archiveBucket(stream));
  const firstSeq = async (stream: string) => (await jsm.streams.info(stream)).state.first_seq;

  beforeAll(async () => {
    // jest's VM cannot run the client's dynamic import of node:crypto: the same digest in pure JS.
    useNodeSha256();
    setSha256Backend('js');
    nc = await connect({ servers: [NATS_URL] });
    jsm = await jetstreamManager(nc);
  });

  afterAll(async () => {
    await Promise.all(logs.map((log) => log.close()));
    for (const stream of [kept, archived, sealed]) await deleteStream(stream);
    await nc?.close();
  });

  it('reads the purged history back from the archive, byte for byte what a `keep` stream holds', async () => {
    await fill(await open(kept, 'keep'));
    const a = await open(archived, 'snapshot');
    const b = await open(archived, 'snapshot');
    await fill(a);
    await until('the second node applied every record', () => b.committedHead() === RECORDS);

    // Two nodes purge at once (two snapshot publishers): the same chunks, stored once.
    await Promise.all([a.purgeBefore(150), b.purgeBefore(150)]);
    const first = (await firstSeq(archived)) - 1;
    // Only whole chunks are archived: the purge stops at the last one's end, at most a chunk short.
    expect(first).toBeGreaterThan(130);
    expect(first).toBeLessThanOrEqual(150);
    const chunks = (await (await bucket(archived)).list())
      .filter((c) => !c.deleted)
      .map((c) => c.name)
      .sort();
    const ranges = chunks.map((name) => name.split('-').slice(1).map(Number));
    expect(ranges[0][0]).toBe(0);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i][0]).toBe(ranges[i - 1][1]);
    expect(ranges[ranges.length - 1][1]).toBe(first);
    expect(errors).toEqual([]);

    const want = await history(options(kept, 'keep'));
    expect(want).toHaveLength(RECORDS);
    const got = await history(options(archived, 'snapshot'));
    expect(got).toEqual(want);
    expect(got.every((r, i) => r.payload.equals(want[i].payload))).toBe(true);
    expect(await eventLines(options(archived, 'snapshot'))).toEqual(await eventLines(options(kept, 'keep')));

    // A chunk whose bytes changed (its listed digest kept) is refused by name.
    const store = await bucket(archived);
    const victim = chunks[3];
    const info = (await store.info(victim))!;
    const original = Buffer.from((await store.getBlob(victim))!);
    const bytes = Buffer.from(original);
    bytes[40] ^= 0xff;
    await store.putBlob({ name: victim, metadata: info.metadata }, bytes);
    const damaged = history(options(archived, 'snapshot'));
    await expect(damaged).rejects.toThrow(ArchiveDamagedError);
    await expect(damaged).rejects.toThrow(`archive chunk ${victim} is damaged`);

    // A chunk that is gone is a gap named by the offsets and the chunk that held them.
    await store.delete(victim);
    const gap = history(options(archived, 'snapshot'));
    await expect(gap).rejects.toThrow(ArchiveGapError);
    await expect(gap).rejects.toThrow(`offsets ${ranges[3][0]}..${ranges[3][1] - 1} are in neither`);
    await expect(gap).rejects.toThrow(`archive chunk ${victim} is missing`);

    // The stream lost (deleted): the archive alone still gives every record it holds.
    await store.putBlob({ name: victim, metadata: info.metadata }, original);
    await Promise.all([a.close(), b.close()]);
    await jsm.streams.delete(archived);
    expect(await history(options(archived, 'snapshot'))).toEqual(want.slice(0, first));
  }, 60_000);

  it('purges nothing when the archive cannot be written, and says so in a line and a count', async () => {
    const log = await open(sealed, 'snapshot');
    await fill(log);
    await (await bucket(sealed)).seal();
    errors.length = 0;
    await log.purgeBefore(150);
    expect(await firstSeq(sealed)).toBe(1);
    expect(log.firstOffset()).toBe(0);
    expect(log.archiveFailures()).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(
      `archiving stream ${sealed} below offset 150 to object store ${archiveBucket(sealed)} failed, so the stream is not purged`,
    );
    expect(errors[0]).toMatch(/sealed|not allowed|deny/i);
  }, 60_000);
});
