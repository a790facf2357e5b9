import { createHash } from 'node:crypto';
import { codePointLength, invisiblesToSpaces } from '../common/sweep';
import { casefold } from '../common/py-compat/casefold';

/** A 422's ref token pasted into a text (with the `ref=` / `&ref=` the refusal shows it behind). */
const REF_TOKEN = /(?:&?ref=)?422-[0-9a-f]{1,8}-[0-9a-f]{4}/g;
const WHITESPACE_RUN = /\s+/g;

/**
 * The form duplicate texts are compared in (contract §8.5): NFKC, the six sweep categories to
 * spaces, Python's casefold, ref tokens cut out, whitespace collapsed and trimmed. It folds what
 * copies of one text vary in (case, spacing, compatibility forms) and nothing fuzzier. It never
 * throws: refusing malformed text is the append's job, in the append's words.
 */
export function normaliseForDuplicates(text: string): string {
  const folded = casefold(invisiblesToSpaces(text.normalize('NFKC')));
  return folded.replace(REF_TOKEN, ' ').replace(WHITESPACE_RUN, ' ').trim();
}

/**
 * The filter's key for `text` in `room`, or null when the normalised text is shorter than
 * `minLength` code points (short conversational repeats are never filtered). One function for
 * reserving and releasing, so the two can never disagree about what "the same text" is.
 */
export function duplicateKey(room: string, text: string, minLength: number): string | null {
  const normalised = normaliseForDuplicates(text);
  if (codePointLength(normalised) < minLength) return null;
  return `${room}\n${createHash('sha256').update(normalised, 'utf8').digest('base64')}`;
}
