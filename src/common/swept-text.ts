import { BadRequestError } from './errors/bad-request.error';
import { codePointLength, sweep } from './sweep';

/** What differs between the free-text fields (message texts, note values): their cap and advice. */
export interface SweptTextRule {
  readonly maxChars: number;
  /** Ends the empty-text error: what the field needs. */
  readonly whenEmpty: string;
  /** Names the cap in the too-long error, e.g. `the limit for a note value is`. */
  readonly limitIs: string;
  /** How to fit, e.g. `Split it over several keys`. */
  readonly split: string;
  /** Where long non-Latin text goes instead, e.g. `POST /kv/<ns>/<key>`. */
  readonly post: string;
  /** What the JSON POST carries, e.g. `values` or `text`. */
  readonly longWhat: string;
}

/**
 * The single-line sweep, then 1..maxChars code points (contract §5.2), with the reference's wording:
 * an empty result and an over-long one each get a 400 that says how to correct it.
 */
export function sweptText(raw: string, rule: SweptTextRule): string {
  const text = sweep(raw);
  if (text.length === 0) {
    throw new BadRequestError(
      'empty text: nothing is left once invisible characters (newlines, control and format characters) ' +
        `become spaces and the ends are trimmed. ${rule.whenEmpty}`,
    );
  }
  const length = codePointLength(text);
  if (length > rule.maxChars) {
    throw new BadRequestError(
      `text too long: ${length} characters after the single-line sweep; ${rule.limitIs} ` +
        `${rule.maxChars}. ${rule.split}; for long non-Latin ${rule.longWhat} use ` +
        `${rule.post} with a JSON body (a URL carries far fewer characters).`,
    );
  }
  return text;
}
