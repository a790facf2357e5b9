import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { ExpectedHeadMismatchError, LogUnavailableError } from '../log.errors';

/**
 * What a refused or unanswered publish means to a writer. A broken precondition (another node wrote
 * first) is a conflict carrying the offset the stream is really at when the server says so; anything
 * else — a timeout, a lost connection, a full stream — makes the log unavailable for this write.
 */
export function publishFailure(error: unknown, offset: number): Error {
  if (error instanceof JetStreamApiError) {
    if (error.code === JetStreamApiCodes.StreamWrongLastSequence) {
      const last = /wrong last sequence: (\d+)/.exec(error.message);
      // The stream's last sequence (1-based) is the offset (0-based) its next record receives.
      return new ExpectedHeadMismatchError(offset, last ? Number(last[1]) : offset);
    }
    if (error.code === 10070) return new ExpectedHeadMismatchError(offset, offset); // wrong last msg ID
  }
  return new LogUnavailableError(`NATS publish failed: ${(error as Error).message}`);
}
