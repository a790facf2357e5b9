import { JetStreamApiError, jetstreamManager } from '@nats-io/jetstream';
import { connectNats } from '../log/nats/nats-connection';
import { NatsLogOptions } from '../log/nats/nats-log.options';
import { NatsSnapshotStore } from '../log/nats/nats-snapshot-store';
import { createStream } from '../log/nats/stream-spec';
import { UsageError } from './cli-args';

const STREAM_NOT_FOUND = 10059;

/**
 * After the stream was lost (its servers' stores gone, or deleted): creates it again, empty, with its
 * first sequence right after a shared snapshot (the newest, or the one at `offset`). Nodes started on
 * empty data directories then restore that snapshot (it is at the stream's first record) and write
 * on from there. Records between the archive's end and the snapshot are lost as records (their
 * effect is in the snapshot); readers name that gap. Refuses when the stream exists.
 */
export async function restartStream(
  options: NatsLogOptions,
  offset?: number,
): Promise<{ readonly offset: number; readonly snapshot: string }> {
  const nc = await connectNats(options);
  let snapshots: NatsSnapshotStore | undefined;
  try {
    const jsm = await jetstreamManager(nc, { timeout: options.timeoutMs });
    const existing = await jsm.streams.info(options.stream).catch((error: unknown) => {
      if (error instanceof JetStreamApiError && error.code === STREAM_NOT_FOUND) return null;
      throw error;
    });
    if (existing !== null) {
      throw new UsageError(
        `stream ${options.stream} exists (records ${existing.state.first_seq}..${existing.state.last_seq}): ` +
          'this is only for a stream that was lost; delete it first if it is beyond repair',
      );
    }
    snapshots = await NatsSnapshotStore.open(options);
    const entries = await snapshots.list();
    const entry = offset === undefined ? entries[0] : entries.find((e) => e.offset === offset);
    if (entry === undefined) {
      const held = entries.map((e) => e.offset).join(', ') || 'none';
      throw new UsageError(
        `${snapshots.where} holds no snapshot${offset === undefined ? '' : ` at offset ${offset}`} (held: ${held})`,
      );
    }
    await createStream(jsm, options, entry.offset + 1);
    return { offset: entry.offset, snapshot: entry.name };
  } finally {
    await snapshots?.close();
    await nc.close();
  }
}
