import { NatsConnection } from '@nats-io/nats-core';
import { ObjectStore } from '@nats-io/obj';
import { connectBucket } from './object-store-connection';
import { NatsLogOptions } from './nats-log.options';
import { newestFirst, SnapshotEntry, SnapshotStore, snapshotName, snapshotOffset } from '../snapshot-store';

/** The object store holding a stream's shared snapshots: `<stream>-snapshots`. */
export function snapshotBucket(stream: string): string {
  return `${stream}-snapshots`;
}

/**
 * Shared snapshots in a JetStream object store, replicated like the stream (CHAT_NATS_REPLICAS) so
 * that losing a server loses neither. Created on first use; the object store's own SHA-256 digest
 * is checked by the client on every read, the snapshot's own trailer by the restore.
 *
 * On a connection of its own: an upload of hundreds of MB on the log's connection queued the tail's
 * deliveries and the writes' publishes behind it (measured: writes refused while the tail stalled).
 */
export class NatsSnapshotStore implements SnapshotStore {
  readonly where: string;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly store: ObjectStore,
    bucket: string,
  ) {
    this.where = `object store ${bucket}`;
  }

  static async open(options: NatsLogOptions): Promise<NatsSnapshotStore> {
    const bucket = snapshotBucket(options.stream);
    const { nc, store } = await connectBucket(options, bucket, 'create');
    return new NatsSnapshotStore(nc, store, bucket);
  }

  async close(): Promise<void> {
    await this.nc.close();
  }

  async list(): Promise<SnapshotEntry[]> {
    const entries: SnapshotEntry[] = [];
    for (const info of await this.store.list()) {
      const offset = snapshotOffset(info.name);
      if (offset === null || info.deleted) continue;
      entries.push({ offset, name: info.name, storedAt: Date.parse(info.mtime) });
    }
    return newestFirst(entries);
  }

  async put(offset: number, data: AsyncIterable<Uint8Array>): Promise<void> {
    await this.store.put({ name: snapshotName(offset) }, readable(data));
  }

  async get(name: string): Promise<AsyncIterable<Uint8Array> | null> {
    const result = await this.store.get(name);
    if (result === null) return null;
    return (async function* () {
      const reader = result.data.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
      const error = await result.error;
      if (error) throw error;
    })();
  }

  async delete(name: string): Promise<void> {
    await this.store.delete(name);
  }
}

/** The object store client reads a web ReadableStream; the snapshot is an async iterable of chunks. */
function readable(data: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const chunks = data[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}
