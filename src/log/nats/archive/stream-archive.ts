import { NatsConnection } from '@nats-io/nats-core';
import { jetstream, JetStreamClient } from '@nats-io/jetstream';
import { ObjectStore } from '@nats-io/obj';
import { connectBucket } from '../object-store-connection';
import { NatsLogOptions } from '../nats-log.options';
import { StreamRecord } from '../stream-reader';
import { ChunkEntry, chunkEntry, chunkMetadata, openChunk } from './archive-chunk';
import { ArchiveDamagedError } from './archive-damaged.error';

/** The object store archiving a stream's purged records: `<stream>-archive`. */
export function archiveBucket(stream: string): string {
  return `${stream}-archive`;
}

/**
 * The chunks of one stream's archive (FORMAT.md) in a JetStream object store, replicated like the
 * stream. On a connection of its own, like the snapshots: archiving reads the stream and uploads
 * megabytes, which must not queue behind (or ahead of) the tail's deliveries and the writes.
 *
 * Each chunk's entry is written once: the put carries the precondition "no entry of this name yet",
 * so of two nodes archiving the same chunk one stores it and the other finds it stored (with the same
 * digest: chunk boundaries and bytes depend on the records alone) and goes on.
 */
export class StreamArchive {
  readonly where: string;
  /** A client on the archive's connection, to read the stream records being archived. */
  readonly js: JetStreamClient;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly objects: ObjectStore,
    bucket: string,
    timeoutMs: number,
  ) {
    this.where = `object store ${bucket}`;
    this.js = jetstream(nc, { timeout: timeoutMs });
  }

  /** The node's archive: created on first use. */
  static async open(options: NatsLogOptions): Promise<StreamArchive> {
    const bucket = archiveBucket(options.stream);
    const { nc, store } = await connectBucket(options, bucket, 'create');
    return new StreamArchive(nc, store, bucket, options.timeoutMs);
  }

  /** The tools' archive: an existing bucket, or null when the stream never had one. */
  static async existing(options: NatsLogOptions): Promise<StreamArchive | null> {
    const bucket = archiveBucket(options.stream);
    try {
      const { nc, store } = await connectBucket(options, bucket, 'open');
      return new StreamArchive(nc, store, bucket, options.timeoutMs);
    } catch (error) {
      if (/not found/i.test((error as Error).message)) return null;
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.nc.close();
  }

  /** Every chunk the bucket lists (the manifest), by first offset. */
  async entries(): Promise<ChunkEntry[]> {
    const entries: ChunkEntry[] = [];
    for (const info of await this.objects.list()) {
      if (info.deleted) continue;
      const entry = chunkEntry(info.name, info.metadata);
      if (entry !== null) entries.push(entry);
    }
    return entries.sort((a, b) => a.first - b.first || b.next - a.next);
  }

  /** The chunk's records, checked (openChunk); a chunk listed but gone is damaged too. */
  async read(entry: ChunkEntry): Promise<StreamRecord[]> {
    const bytes = await this.objects.getBlob(entry.name);
    if (bytes === null) throw new ArchiveDamagedError(entry.name, 'listed, but its bytes are gone');
    return openChunk(entry, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  /** Stores a sealed chunk once; one already stored must carry the same digest. */
  async store(chunk: { readonly entry: ChunkEntry; readonly bytes: Buffer }): Promise<void> {
    const { entry } = chunk;
    if (await this.holds(entry)) return;
    try {
      await this.objects.putBlob({ name: entry.name, metadata: chunkMetadata(entry) }, chunk.bytes, {
        previousRevision: 0,
      });
    } catch (error) {
      // Another node stored it first (the precondition failed): the same bytes, or a conflict.
      if (await this.holds(entry)) return;
      throw error;
    }
  }

  private async holds(entry: ChunkEntry): Promise<boolean> {
    const info = await this.objects.info(entry.name);
    if (info === null || info.deleted) return false;
    const stored = chunkEntry(info.name, info.metadata);
    if (stored?.sha256 === entry.sha256) return true;
    throw new ArchiveDamagedError(
      entry.name,
      `stored with SHA-256 ${stored?.sha256 ?? '(none)'}, the stream's records give ${entry.sha256}`,
    );
  }
}
