/**
 * Form-style query parsing as the reference does it (contract §1.1): `+` is a space, `%XX` decodes as
 * UTF-8 with U+FFFD on error, blank values are kept (`?if=` is present and empty), and when a key
 * repeats the last value wins. Values are always strings, never arrays.
 */
export type Query = Readonly<Record<string, string | undefined>>;

export function parseQuery(queryString: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (queryString.length === 0) return out;
  for (const [key, value] of new URLSearchParams(queryString)) out[key] = value;
  return out;
}
