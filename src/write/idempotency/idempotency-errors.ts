import { DomainError } from '../../common/domain-error';

/**
 * The key was used for a write with other content (issue 28; the IETF draft's 422): nothing is
 * written, and the body names the original write so the client can tell its own retry from a key it
 * reused by mistake.
 */
export class IdempotencyKeyReusedError extends DomainError {
  constructor(key: string, original: string) {
    super(
      'idempotency_key_reused',
      `idempotency key reused: ${key} already belongs to ${original}, with other content. Nothing was ` +
        'written. A retry must resend exactly the same write (same room or note, same nick or key, same ' +
        'text or value) to get that write’s reply again; a new write needs a new key.',
    );
  }
}

/**
 * A retry of a write that landed, but whose message has since left the ring (compacted away, or the
 * room was reaped): its reply cannot be shown again. Not an error of the client's: the write is done,
 * and the body says where it landed, so the client stops retrying.
 */
export class IdempotentReplayGoneError extends DomainError {
  constructor(key: string, original: string) {
    super(
      'idempotency_replay_gone',
      `already written: ${key} belongs to ${original}, which has since left the ring, so its reply ` +
        'cannot be repeated. Your write is done; do not send it again.',
    );
  }
}
