/**
 * Python's repr() of a str (contract §20.4). Error bodies quote user input the way the reference
 * does (`bad name 'X'`, `got '007a'`, `'0' is not base58btc`), so clients that match on them see
 * the same bytes.
 *
 * Rules (CPython unicode_repr):
 * - quote with ' unless the text contains ' and no ", then with ";
 * - escape \\ and the chosen quote with a backslash; \t \n \r by name;
 * - other non-printable code points as \xNN (≤ 0xff), \uNNNN (≤ 0xffff) or \UNNNNNNNN, lowercase hex;
 * - printable non-ASCII is kept as is. Python calls a code point non-printable when its category is
 *   Other (Cc Cf Cs Co Cn) or Separator (Zs Zl Zp), the ASCII space excepted.
 *
 * The category tables are the Node ICU's, not Python's (Unicode version skew is contract §23.4).
 */
const NON_PRINTABLE = /^[\p{C}\p{Z}]$/u;

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};

export function pyRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let body = '';
  // for…of walks code points; a lone surrogate comes out on its own, as Python sees it.
  for (const ch of value) body += escapeCodePoint(ch, quote);
  return quote + body + quote;
}

function escapeCodePoint(ch: string, quote: string): string {
  if (ch === quote) return '\\' + ch;
  const named = NAMED_ESCAPES[ch];
  if (named !== undefined) return named;
  if (ch === ' ' || !NON_PRINTABLE.test(ch)) return ch;
  const cp = ch.codePointAt(0)!;
  if (cp <= 0xff) return '\\x' + hex(cp, 2);
  if (cp <= 0xffff) return '\\u' + hex(cp, 4);
  return '\\U' + hex(cp, 8);
}

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, '0');
}
