import { CASEFOLD_TABLE } from './casefold-table';

/** Code point → its folded form, parsed once from the generated table. */
const FOLDS: ReadonlyMap<number, string> = parseTable(CASEFOLD_TABLE);

function parseTable(lines: readonly string[]): Map<number, string> {
  const folds = new Map<number, string>();
  for (const line of lines) {
    for (const entry of line.split(' ')) {
      const [from, to] = entry.split(':');
      folds.set(parseInt(from, 16), String.fromCodePoint(...to.split('.').map((hex) => parseInt(hex, 16))));
    }
  }
  return folds;
}

const NON_ASCII = /[^\p{ASCII}]/u;

/**
 * Python's `str.casefold()`: full Unicode case folding (ß → ss, ﬁ → fi, ς → σ, İ → i̇), which
 * `toLowerCase` is not. Entirely table-driven — falling back to `toLowerCase` for unlisted code
 * points would be wrong where folding and lowercasing disagree (Cherokee folds to uppercase).
 * ASCII folds exactly like `toLowerCase`, the fast path for most texts.
 */
export function casefold(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  let folded = '';
  for (const char of text) {
    const mapped = FOLDS.get(char.codePointAt(0)!);
    folded += mapped ?? char;
  }
  return folded;
}
