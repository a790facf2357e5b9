/** One media range of an Accept header with its q. */
interface MediaRange {
  readonly name: string;
  readonly q: number;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((p) => p.trim());
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((p) => p.trim());
      if (key === 'q') q = /^\d+(\.\d*)?$|^\.\d+$/.test(value ?? '') ? Number(value) : 0;
    }
    if (name) ranges.push({ name, q });
  }
  return ranges;
}

/** The q of the most specific range matching `type` (exact, then `text/*`, then `*\/*`); 0 if none. */
function quality(ranges: readonly MediaRange[], type: string): number {
  for (const candidate of [type, `${type.split('/')[0]}/*`, '*/*']) {
    const match = ranges.find((range) => range.name === candidate);
    if (match !== undefined) return match.q;
  }
  return 0;
}

/**
 * Whether a .md document is labelled text/markdown (contract §15.1): only when the Accept header names
 * text/markdown explicitly with q > 0 and at least the q text/plain gets. `*\/*` and `text/*` express no
 * preference, so the plain label stands. The bytes are the same either way; only the label changes.
 */
export function prefersMarkdown(accept: string | string[] | undefined): boolean {
  const joined = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  const ranges = parseAccept(joined);
  if (!ranges.some((range) => range.name === 'text/markdown')) return false;
  const markdown = quality(ranges, 'text/markdown');
  return markdown > 0 && markdown >= quality(ranges, 'text/plain');
}
