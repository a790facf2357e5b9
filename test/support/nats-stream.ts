import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { NatsLogOptions } from '../../src/log/nats/nats-log.options';
import { TEST_NATS_URL_ENV } from './global-nats';

/**
 * The suite's private, current nats-server (started by jest's global setup; see global-nats.ts). A
 * bench or a script run outside jest sets AGENT_CHAT_TEST_NATS_URL itself.
 */
export const NATS_URL = process.env[TEST_NATS_URL_ENV] ?? 'nats://127.0.0.1:4222';

/** A stream name no other test (or engineer) uses; delete it with `deleteStream` afterwards. */
export function uniqueStreamName(prefix: string): string {
  return `${prefix}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

export function natsLogOptions(stream: string, overrides: Partial<NatsLogOptions> = {}): NatsLogOptions {
  return {
    servers: [NATS_URL],
    stream,
    replicas: 1,
    maxBytes: -1,
    duplicateWindowSeconds: 120,
    timeoutMs: 5000,
    ...overrides,
  };
}

/** Deletes a test stream and its object stores, snapshots and archive (missing is fine: the test may have failed first). */
export async function deleteStream(stream: string, servers: readonly string[] = [NATS_URL]): Promise<void> {
  const nc = await connect({ servers: [...servers] });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(stream).catch(() => false);
    await jsm.streams.delete(`OBJ_${stream}-snapshots`).catch(() => false);
    await jsm.streams.delete(`OBJ_${stream}-archive`).catch(() => false);
  } finally {
    await nc.close();
  }
}

/**
 * A service node on `stream` that checkpoints and takes a shared snapshot every 20 records, keeps 2
 * and purges the stream below the older (issue 27 tests), logging its start-up lines (debug: the one
 * naming a restored snapshot).
 */
export function snapshottingNodeEnv(root: string, stream: string): Record<string, string> {
  return {
    CHAT_ROOT: root,
    CHAT_LOG_BACKEND: 'nats',
    CHAT_NATS_URL: NATS_URL,
    CHAT_NATS_STREAM: stream,
    CHAT_CHECKPOINT_EVENTS: '20',
    CHAT_SNAPSHOT_EVERY_EVENTS: '20',
    CHAT_SNAPSHOTS_KEEP: '2',
    CHAT_NATS_RETENTION: 'snapshot',
    CHAT_LOG_LEVEL: 'debug',
  };
}

/** The stream's last sequence (0: empty). */
export async function streamLastSeq(
  stream: string,
  servers: readonly string[] = [NATS_URL],
): Promise<number> {
  const nc = await connect({ servers: [...servers] });
  try {
    return (await (await jetstreamManager(nc)).streams.info(stream)).state.last_seq;
  } finally {
    await nc.close();
  }
}

/** Every record the stream holds, read raw from NATS: its sequence, subject and stored bytes. */
export async function storedMessages(
  stream: string,
): Promise<Array<{ readonly seq: number; readonly subject: string; readonly data: Buffer }>> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const last = (await (await jetstreamManager(nc)).streams.info(stream)).state.last_seq;
    const consumer = await jetstream(nc).consumers.get(stream, { deliver_policy: DeliverPolicy.All });
    const messages: Array<{ seq: number; subject: string; data: Buffer }> = [];
    for (let seq = 0; seq < last;) {
      const message = (await consumer.next({ expires: 5000 }))!;
      seq = message.seq;
      messages.push({ seq, subject: message.subject, data: Buffer.from(message.data) });
    }
    return messages;
  } finally {
    await nc.close();
  }
}
