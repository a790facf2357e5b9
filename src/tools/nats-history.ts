import { jetstream, jetstreamManager, StreamInfo } from '@nats-io/jetstream';
import { readHistory } from '../log/nats/archive/history-reader';
import { StreamArchive } from '../log/nats/archive/stream-archive';
import { connectNats } from '../log/nats/nats-connection';
import { NatsLogOptions } from '../log/nats/nats-log.options';
import { StreamRecord } from '../log/nats/stream-reader';

/** What a tool reads from a NATS stream's history, and where it lies. */
export interface NatsHistory {
  readonly records: AsyncIterable<StreamRecord>;
  /** The stream's first record (log offset) when the read began: below it, the archive's chunks. */
  readonly streamFirst: number;
  /** The stream's last record + 1 when the read began (records written later are not read). */
  readonly until: number;
  /** `object store <stream>-archive`, or null when the stream has no archive. */
  readonly archive: string | null;
}

/**
 * Runs `use` over the records [from, head) of a stream's whole history (readHistory: archive chunks,
 * then the stream), read-only, then closes what it opened. The tools' way into a NATS deployment:
 * `npm run events -- --nats <stream>`, `npm run verify -- --nats <stream>`.
 */
export async function withNatsHistory<T>(
  options: NatsLogOptions,
  from: number,
  use: (history: NatsHistory) => Promise<T>,
): Promise<T> {
  const nc = await connectNats(options);
  let archive: StreamArchive | null = null;
  try {
    archive = await StreamArchive.existing(options);
    const jsm = await jetstreamManager(nc, { timeout: options.timeoutMs });
    const state = await streamState(() => jsm.streams.info(options.stream), archive);
    const until = state.last_seq;
    const records = readHistory({
      js: jetstream(nc, { timeout: options.timeoutMs }),
      stream: options.stream,
      archive,
      from,
      until,
    });
    return await use({
      records,
      streamFirst: Math.max(0, state.first_seq - 1),
      until,
      archive: archive?.where ?? null,
    });
  } finally {
    await archive?.close();
    await nc.close();
  }
}

/**
 * The stream's first and last sequence; a lost stream (deleted, its servers' stores gone) with an
 * archive reads as an empty stream after the archive's end, so the archived history stays readable
 * (docs/scaling.md, "Restore after losing the stream").
 */
async function streamState(
  info: () => Promise<StreamInfo>,
  archive: StreamArchive | null,
): Promise<{ first_seq: number; last_seq: number }> {
  try {
    return (await info()).state;
  } catch (error) {
    if (archive === null || !/stream not found/i.test((error as Error).message)) throw error;
    // The archive's furthest chunk: a gap before it is named by the reader, not hidden.
    const end = Math.max(0, ...(await archive.entries()).map((entry) => entry.next));
    return { first_seq: end + 1, last_seq: end };
  }
}
