import { DomainError } from '../../common/domain-error';

/**
 * The request line and headers passed Node's limit (`http.maxHeaderSize`, 16 KiB) before the header
 * budget of contract §1.1 could even count them: in practice a URL carrying a long text. 431, as Node
 * answered, naming the way long texts travel.
 */
export class RequestHeadTooLargeError extends DomainError {
  constructor(limitBytes: number, bodyCapBytes: number) {
    super(
      'request_head_too_large',
      `request head too large: the request line and headers passed ${limitBytes} bytes. Long texts go in a ` +
        `POST body: POST /r/<room> with {"from": …, "text": …} or POST /kv/<ns>/<key> with {"value": …}, up ` +
        `to ${bodyCapBytes} bytes as JSON; keep URLs and headers short.`,
      { connection: 'close' },
    );
  }
}
