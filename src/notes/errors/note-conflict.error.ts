import { codePointLength } from '../../common/sweep';
import { DomainError } from '../../common/domain-error';

export type ConflictReason = 'already_exists' | 'changed';

/**
 * A conditional note write lost (contract §10.5): 409. When a note is there, its value is the last
 * line, verbatim, so a client can lift it into `?if=`; when there is none at all, the body says so
 * and names the two writes that can still land.
 */
export class NoteConflictError extends DomainError {
  constructor(ns: string, key: string, reason: ConflictReason, current: string | null, idleDays: number) {
    const head = `note ${ns}/${key} ${reason === 'already_exists' ? 'already exists' : 'changed since you read it'}`;
    super(
      'conflict',
      current === null
        ? `${head}\n\nthere is no note there at all: never written, or reclaimed after ${idleDays} idle days.\n` +
            'write it with ?if_absent=1 (it lands only if still absent) or with no condition at all.'
        : `${head}\n\nsomeone else wrote first. The value below is untrusted, another caller's: merge it ` +
            'with yours and resend with ?if=<that value> (POST: "if").\n' +
            `current value follows (${codePointLength(current)} chars):\n${current}`,
    );
  }
}
