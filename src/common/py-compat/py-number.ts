/**
 * Python's int() and float() parsing of query values (contract §20.1–2). Clients send `since=1_000`,
 * fullwidth digits or ` 2 ` and the reference accepts them; anything else falls back to a default.
 */
const UNICODE_DIGIT = /\p{Nd}/u;
// Python's str.isspace() also counts the separators U+001C–U+001F, which int() and float() strip.
// eslint-disable-next-line no-control-regex
const WHITESPACE_EDGES = /^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/g;

/** Numeric value of one Nd code point: Nd characters come in aligned runs of ten starting at zero. */
function digitValue(cp: number): number {
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  let start = cp;
  while (start > 0 && UNICODE_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/** Digits with single underscores between them → ASCII digit string, or null. */
function asciiDigits(body: string): string | null {
  if (body.length === 0 || body.startsWith('_') || body.endsWith('_') || body.includes('__')) return null;
  let out = '';
  for (const ch of body) {
    if (ch === '_') continue;
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x30 && cp <= 0x39) out += ch;
    else if (UNICODE_DIGIT.test(ch)) out += String(digitValue(cp));
    else return null;
  }
  return out;
}

/** Python int(str) → bigint, or null when Python would raise ValueError. */
export function parsePyInt(raw: string): bigint | null {
  const text = raw.replace(WHITESPACE_EDGES, '');
  let sign = 1n;
  let body = text;
  if (body.startsWith('+') || body.startsWith('-')) {
    if (body.startsWith('-')) sign = -1n;
    body = body.slice(1);
  }
  const digits = asciiDigits(body);
  return digits === null ? null : sign * BigInt(digits);
}

/** A non-negative int parameter: the parsed value, or null for "absent/invalid/negative". */
export function parseNonNegativeInt(raw: string | undefined): bigint | null {
  if (raw === undefined) return null;
  const value = parsePyInt(raw);
  return value === null || value < 0n ? null : value;
}

const FLOAT_SHAPE = /^([+-]?)(?:(\d[\d_]*)?(?:\.(\d[\d_]*)?)?)(?:[eE]([+-]?\d[\d_]*))?$/;
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

function normaliseDigits(text: string): string | null {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp > 0x7f && UNICODE_DIGIT.test(ch)) out += String(digitValue(cp));
    else out += ch;
  }
  return out;
}

function validUnderscores(part: string | undefined): boolean {
  return part === undefined || !(part.startsWith('_') || part.endsWith('_') || part.includes('__'));
}

/** Python float(str) → number (may be ±Infinity or NaN), or null when Python would raise. */
export function parsePyFloat(raw: string): number | null {
  const text = normaliseDigits(raw.replace(WHITESPACE_EDGES, ''));
  if (text === null || text.length === 0) return null;
  const special = SPECIAL.exec(text);
  if (special) {
    if (special[2].toLowerCase() === 'nan') return NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  const m = FLOAT_SHAPE.exec(text);
  if (!m || (m[2] === undefined && m[3] === undefined)) return null;
  const exponent = m[4]?.replace(/^[+-]/, '');
  if (![m[2], m[3], exponent].every(validUnderscores)) return null;
  return Number(text.replace(/_/g, ''));
}
