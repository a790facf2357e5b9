import { DomainError } from '../../common/domain-error';
import { methodNotAllowedText } from '../render/route-map.text';

const ANYWHERE: readonly string[] = ['GET', 'HEAD', 'POST'];

/**
 * A method no route can take whatever the path (CONNECT, which Node hands over before routing): the
 * 405 of contract §14.2, naming what the service accepts.
 */
export class MethodNotAllowedError extends DomainError {
  constructor(method: string) {
    // The rendered body starts with its status; the message is what follows it.
    super('method_not_allowed', methodNotAllowedText(method, ANYWHERE).replace(/^405 /, ''), {
      allow: ANYWHERE.join(', '),
    });
  }
}
