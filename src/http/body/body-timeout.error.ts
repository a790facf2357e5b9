import { DomainError } from '../../common/domain-error';
import { formatG } from '../../common/py-compat/py-format';

/** The body did not finish before the total upload deadline (contract §8.7): 408 and the connection closes. */
export class BodyTimeoutError extends DomainError {
  constructor(deadlineSeconds: number) {
    super(
      'body_timeout',
      `body upload exceeded ${formatG(deadlineSeconds)}s. Send the whole body promptly after the headers, ` +
        'and retry on a new connection.',
      { connection: 'close' },
    );
  }
}
