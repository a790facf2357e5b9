import { JetStreamManager, jetstreamManager, StreamInfo } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { connectNats } from './nats-connection';
import { NatsLogOptions } from './nats-log.options';
import { NatsSnapshotStore } from './nats-snapshot-store';
import { assertServerVersions } from './server-versions';
import { StreamFloor } from './stream-floor';
import { StreamPurge } from './stream-purge';
import { effectiveRetention, ensureStream } from './stream-spec';
import { SubjectLayout } from './subjects';

/** What a JetStream log holds open besides its session: the connection, the stream, its stores. */
export interface StreamResources {
  readonly nc: NatsConnection;
  readonly jsm: JetStreamManager;
  /** The stream as found (or created, or upgraded) at open. */
  readonly info: StreamInfo;
  readonly retention: 'keep' | 'snapshot';
  readonly snapshots: NatsSnapshotStore;
  readonly purge: StreamPurge;
  /** Closes what was opened (used when the open fails after this point). */
  close(): Promise<void>;
}

/**
 * Connects, refuses servers with the replica defect, creates or upgrades the stream (saying so) and
 * opens the snapshot store and the purge (with its archive). Whatever was opened is closed again when
 * a later step fails, so a failed open leaves no connection behind.
 */
export async function openStreamResources(
  options: NatsLogOptions,
  layout: SubjectLayout,
  floor: StreamFloor,
): Promise<StreamResources> {
  const nc = await connectNats(options);
  let snapshots: NatsSnapshotStore | undefined;
  let purge: StreamPurge | undefined;
  const close = async () => {
    await snapshots?.close();
    await purge?.close();
    await nc.close();
  };
  try {
    await assertServerVersions(options);
    const jsm = await jetstreamManager(nc, { timeout: options.timeoutMs });
    const { info, upgraded } = await ensureStream(jsm, options);
    if (upgraded) {
      options.logger?.warn(
        `upgraded stream ${options.stream} in place: subjects ${layout.streamSubjects().join(',')}, ` +
          'atomic batches on; its earlier records stay readable, nodes of older versions can no longer write',
      );
    }
    snapshots = await NatsSnapshotStore.open(options);
    purge = await StreamPurge.open(jsm, options, floor);
    return { nc, jsm, info, retention: effectiveRetention(info, options), snapshots, purge, close };
  } catch (error) {
    await close();
    throw error;
  }
}
