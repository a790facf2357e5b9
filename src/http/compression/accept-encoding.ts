import { ContentCoding } from './content-coding';

/** Distinct Accept-Encoding values remembered; clients send a handful, so the memo rarely refills. */
const MEMO_ENTRIES = 256;
const memo = new Map<string, ContentCoding | null>();

/**
 * The coding to answer a request with (RFC 9110 §12.5.3), or null to send the body as it is.
 * br or gzip (`x-gzip` counts as gzip), whichever the client weights higher, br on a tie (smaller
 * for the same cost); `*` weights every coding the header does not name; `q=0` refuses a coding.
 * Null when the header is absent or empty, when neither coding is acceptable, or when the client
 * names `identity` with a higher weight than the best coding. Hot path: answers are memoised per
 * header value.
 */
export function negotiateCoding(header: string | string[] | undefined): ContentCoding | null {
  if (header === undefined || header === '') return null;
  const text = Array.isArray(header) ? header.join(',') : header;
  const known = memo.get(text);
  if (known !== undefined) return known;
  const chosen = choose(weights(text));
  if (memo.size >= MEMO_ENTRIES) memo.clear();
  memo.set(text, chosen);
  return chosen;
}

function choose(weight: ReadonlyMap<string, number>): ContentCoding | null {
  const any = weight.get('*') ?? 0;
  const br = weight.get('br') ?? any;
  const gzip = weight.get('gzip') ?? any;
  const best = Math.max(br, gzip);
  if (best <= 0) return null;
  if ((weight.get('identity') ?? 0) > best) return null;
  return br >= gzip ? 'br' : 'gzip';
}

/** Coding name → weight; a coding listed twice keeps its higher weight. */
function weights(text: string): Map<string, number> {
  const result = new Map<string, number>();
  for (const element of text.split(',')) {
    const [rawName, ...params] = element.split(';');
    let name = rawName.trim().toLowerCase();
    if (name === '') continue;
    if (name === 'x-gzip') name = 'gzip';
    let q = 1;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq >= 0 && param.slice(0, eq).trim().toLowerCase() === 'q') q = qvalue(param.slice(eq + 1));
    }
    result.set(name, Math.max(q, result.get(name) ?? 0));
  }
  return result;
}

/** A weight between 0 and 1; an unreadable one refuses the coding (plain is always decodable). */
function qvalue(text: string): number {
  const q = Number(text.trim());
  return Number.isFinite(q) && text.trim() !== '' ? Math.min(1, Math.max(0, q)) : 0;
}
