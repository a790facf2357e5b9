import { NatsConnection } from '@nats-io/nats-core';
import { jetstream, StorageType } from '@nats-io/jetstream';
import { ObjectStore, Objm, setSha256Backend } from '@nats-io/obj';
import { connectNats } from './nats-connection';
import { NatsLogOptions } from './nats-log.options';

let chosen = false;

/**
 * The object store client hashes every object it puts and gets; its default is a pure-JS SHA-256
 * (made for browsers), ~1 s per 40 MB on this machine, on the event loop. Node's own is the same
 * digest. The choice is process-wide, so it is made once: a later choice (jest's VM cannot run the
 * client's dynamic import of node:crypto, so in-process tests pick the pure-JS one) is kept.
 */
export function useNodeSha256(): void {
  if (chosen) return;
  chosen = true;
  setSha256Backend('native');
}

/** How a bucket is reached: created (replicated like the stream) when absent, or only opened. */
export type BucketAccess = 'create' | 'open';

/**
 * An object store bucket beside the stream (snapshots, the archive) on a connection of its own: an
 * upload of hundreds of MB on the log's connection queued the tail's deliveries and the writes'
 * publishes behind it (measured: writes refused while the tail stalled).
 */
export async function connectBucket(
  options: NatsLogOptions,
  bucket: string,
  access: BucketAccess,
): Promise<{ readonly nc: NatsConnection; readonly store: ObjectStore }> {
  useNodeSha256();
  const nc = await connectNats(options);
  try {
    const objm = new Objm(jetstream(nc, { timeout: options.timeoutMs }));
    const store =
      access === 'create'
        ? await objm.create(bucket, { replicas: options.replicas, storage: StorageType.File })
        : await objm.open(bucket);
    return { nc, store };
  } catch (error) {
    await nc.close();
    throw error;
  }
}
