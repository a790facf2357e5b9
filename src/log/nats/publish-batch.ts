import { headers, NatsConnection, nuid } from '@nats-io/nats-core';
import { AckRequests } from './ack-requests';

/** The precondition NATS checks: the scope's (subject's) last record is this sequence, 0 for none. */
export const EXPECTED_HEADER = 'Nats-Expected-Last-Subject-Sequence';
/**
 * With `expect` 0: the stream's first sequence as the writer saw it (docs/scaling.md, "Writing to a
 * scope whose records were purged"). A node that knows the scope's last record below it reads "no
 * record" as holding: that record was purged. Not checked by NATS; read by every node alike.
 */
export const FLOOR_HEADER = 'Chat-Stream-First-Seq';

/** One record on its way to the stream, with the precondition of its scope when it is the first. */
export interface OutgoingMessage {
  readonly subject: string;
  readonly payload: Buffer;
  /** "The last record on this subject (the scope) has sequence `expect`" (0: none), checked by the server. */
  readonly expect?: number;
  /** With `expect` 0, when the stream was purged: its first sequence as the writer saw it (FLOOR_HEADER). */
  readonly floor?: number;
}

/** The stream refused a publish (a JetStream API error in the acknowledgement). */
export class PublishRefusedError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
  ) {
    super(`NATS refused the write: ${description} (${code})`);
  }
}

interface PubAck {
  readonly seq?: number;
  readonly count?: number;
  readonly error?: { readonly err_code: number; readonly description: string };
}

/**
 * Publishes one batch and resolves with the stream sequence of its last message. One message is a
 * plain JetStream publish; several are one atomic batch (nats-server ≥ 2.12, stream `allow_atomic`):
 * `Nats-Batch-Id` and `Nats-Batch-Sequence` on every message, `Nats-Batch-Commit` on the last, which
 * alone asks for the acknowledgement — so the batch goes out in one socket write and costs one round
 * trip. The server stores all of it at consecutive sequences or none of it; a precondition that fails
 * on any message, or a message it rejects, refuses the whole batch. The acknowledgement is awaited
 * through `acks` (bounded by its timeout).
 */
export async function publishBatch(
  nc: NatsConnection,
  acks: AckRequests,
  messages: readonly OutgoingMessage[],
): Promise<number> {
  // Refused before anything is sent: the client would throw on that message, mid-batch.
  const maxPayload = nc.info?.max_payload ?? Number.POSITIVE_INFINITY;
  const tooLarge = messages.find((message) => message.payload.length > maxPayload);
  if (tooLarge) {
    throw new PublishRefusedError(
      0,
      `a record of ${tooLarge.payload.length} bytes is over max_payload ${maxPayload}`,
    );
  }
  const batch = messages.length > 1 ? nuid.next() : undefined;
  const last = messages.length - 1;
  for (let i = 0; i < last; i++) {
    nc.publish(messages[i].subject, messages[i].payload, { headers: headersOf(messages[i], batch, i) });
  }
  const reply = await acks.request(
    messages[last].subject,
    messages[last].payload,
    headersOf(messages[last], batch, last, true),
  );
  const ack = reply.json<PubAck>();
  if (ack.error) throw new PublishRefusedError(ack.error.err_code, ack.error.description);
  if (ack.seq === undefined || (batch !== undefined && ack.count !== messages.length)) {
    throw new PublishRefusedError(0, `unexpected acknowledgement ${reply.string()}`);
  }
  return ack.seq;
}

function headersOf(message: OutgoingMessage, batch: string | undefined, index: number, commit = false) {
  const h = headers();
  if (message.expect !== undefined) h.set(EXPECTED_HEADER, String(message.expect));
  if (message.floor !== undefined) h.set(FLOOR_HEADER, String(message.floor));
  if (batch !== undefined) {
    h.set('Nats-Batch-Id', batch);
    h.set('Nats-Batch-Sequence', String(index + 1));
    if (commit) h.set('Nats-Batch-Commit', '1');
  }
  return h;
}
