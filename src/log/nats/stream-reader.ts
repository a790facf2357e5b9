import { DeliverPolicy, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { LogRecord } from '../event-log';
import { EXPECTED_HEADER, FLOOR_HEADER } from './publish-batch';
import { SubjectLayout } from './subjects';

/**
 * A stored record, the subject it was stored on, its scope (`scope`: the subject's scope id, absent
 * on a version-1 record) and the precondition it carried.
 */
export interface StreamRecord extends LogRecord {
  readonly subject: string;
  /** Its Nats-Expected-Last-Subject-Sequence: the scope's last record its writer decided against. */
  readonly expected?: number;
  /** With `expected` 0: the stream's first sequence its writer saw (FLOOR_HEADER); absent on older records. */
  readonly floor?: number;
}

/**
 * The payload is a view of the bytes the client library received, not a copy: records are folded
 * (decoded, hashed) and dropped, never kept, so the view holds the received chunk only briefly.
 */
export function streamRecordOf(message: JsMsg, layout: SubjectLayout): StreamRecord {
  const expected = message.headers?.get(EXPECTED_HEADER);
  const floor = message.headers?.get(FLOOR_HEADER);
  const data = message.data;
  return {
    offset: offsetOf(message.seq),
    subject: message.subject,
    scope: layout.scopeOf(message.subject),
    payload: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
    expected: expected ? Number(expected) : undefined,
    floor: floor ? Number(floor) : undefined,
  };
}

/** Stream sequences start at 1; log offsets at 0. */
export const offsetOf = (seq: number): number => seq - 1;
export const seqOf = (offset: number): number => offset + 1;

/**
 * Records [from, until) of the stream through a short-lived ordered consumer (start-up replay and the
 * tools; the live path is the tail consumer). Stops at `until` and removes its consumer on the way out,
 * including when the caller breaks early.
 */
export async function* readStream(
  js: JetStreamClient,
  layout: SubjectLayout,
  from: number,
  until: number,
): AsyncGenerator<StreamRecord> {
  const { stream } = layout;
  if (from >= until) return;
  const consumer = await js.consumers.get(stream, {
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: seqOf(from),
  });
  const messages = await consumer.consume();
  try {
    for await (const message of messages) {
      const offset = offsetOf(message.seq);
      if (offset >= until) break;
      yield streamRecordOf(message, layout);
      if (offset + 1 >= until) break;
    }
  } finally {
    messages.stop();
    await consumer.delete().catch(() => undefined);
  }
}
