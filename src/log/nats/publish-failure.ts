import { RequestError, TimeoutError } from '@nats-io/nats-core';
import { LogConflictError, LogUnavailableError } from '../log.errors';
import { PublishRefusedError } from './publish-batch';

/** JetStream's "wrong last sequence" (a precondition that did not hold), plain and inside a batch. */
const WRONG_LAST_SEQUENCE = new Set([10071, 10164]);

/** The scope's real last sequence when the server refused a precondition; undefined otherwise. */
export function wrongLastSequence(error: unknown): number | undefined {
  if (!(error instanceof PublishRefusedError) || !WRONG_LAST_SEQUENCE.has(error.code)) return undefined;
  const last = /wrong last sequence: (\d+)/.exec(error.description);
  return last ? Number(last[1]) : Number.NaN;
}

/**
 * What a refused or unanswered publish means to a writer. A broken precondition (another node wrote
 * first) is a conflict naming the record to apply before deciding again; anything else — a timeout,
 * a lost connection, no stream leader, a full stream — makes the log unavailable for this write. A
 * timeout leaves the write's fate unknown: it may have been stored, which the next decision's
 * precondition will find out.
 */
export function publishFailure(
  error: unknown,
  context: { readonly lost: LogUnavailableError | undefined; readonly committedNext: number },
): Error {
  const last = wrongLastSequence(error);
  if (last !== undefined) {
    // Without a sequence: the stream leader is still storing another write to the scope (a
    // clustered stream takes one such write at a time); decide again once the next record arrived.
    if (Number.isNaN(last)) return new LogConflictError(context.committedNext, 'a write to it is in flight');
    return new LogConflictError(last - 1, `its last record is now ${last}`);
  }
  const { lost } = context;
  // A publish sent just before the connection dropped fails by its timeout; the lost connection is
  // the cause an operator needs to read, whichever of the two the client noticed first.
  if (lost) return lost;
  if (error instanceof PublishRefusedError) return new LogUnavailableError(error.message);
  if (error instanceof TimeoutError) {
    return new LogUnavailableError('NATS did not acknowledge in time; the write may still have been stored');
  }
  if (error instanceof RequestError && error.isNoResponders()) {
    return new LogUnavailableError('no JetStream stream leader answers (an election may be under way)');
  }
  return new LogUnavailableError(`NATS publish failed: ${(error as Error).message}`);
}
