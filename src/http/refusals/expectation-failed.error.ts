import { DomainError } from '../../common/domain-error';

/** An `Expect` other than 100-continue (RFC 9110 §10.1.1): 417, as Node answered, without the empty body. */
export class ExpectationFailedError extends DomainError {
  constructor(expect: string) {
    super(
      'expectation_failed',
      `expectation failed: this server understands only Expect: 100-continue, not ${JSON.stringify(expect.slice(0, 80))}. ` +
        'Send the request without the Expect header.',
      { connection: 'close' },
    );
  }
}
