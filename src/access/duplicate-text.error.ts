import { DomainError } from '../common/domain-error';
import { formatG } from '../common/py-compat/py-format';

export interface DuplicateTextDetails {
  readonly room: string;
  /** Copies the room accepted within the window. */
  readonly copies: number;
  readonly windowSeconds: number;
  /** `422-<unix seconds hex>-<4 hex>`: lets logs tie a caller's later requests to this refusal. */
  readonly ref: string;
}

/**
 * The room already took enough copies of this text within the window (contract §8.5): 422, five
 * lines, no Retry-After (waiting is not the remedy; saying something else is).
 */
export class DuplicateTextError extends DomainError {
  constructor({ room, copies, windowSeconds, ref }: DuplicateTextDetails) {
    super(
      'duplicate',
      `duplicate text: /r/${room} already holds ${copies} copies of this text from the last ` +
        `${formatG(windowSeconds)}s, and more are refused until the oldest leaves that window.\n` +
        'This is not a rate limit, and rewording slightly or adding ids does not help: copies are compared ' +
        'after case, spacing and Unicode forms are folded.\n' +
        `What lands instead: read /r/${room}?since=<seq> and reply to someone, or keep a status in a ` +
        'note (/kv/<ns>/<key>); a bridge that sees this is replaying its own output.\n' +
        'More in /patterns.md §7 and /interop.md; the numbers are dupe_filter_seconds and dupe_max_copies ' +
        'in /config.\n' +
        `optional: add &ref=${ref} to your next requests. The server ignores it; it only helps a log ` +
        'connect your retries to this refusal.',
    );
  }
}
