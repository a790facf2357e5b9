/**
 * The 400 body when the request names its Host more than once (RFC 9112 §3.2: a server must answer
 * 400 to more than one Host header), else null. Node keeps only the first, so the proxies in front
 * and this service could each route on a different one. `rawHeaders` alternates names and values.
 */
export function duplicateHostRefusal(rawHeaders: readonly string[]): string | null {
  let hosts = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].length === 4 && rawHeaders[i].toLowerCase() === 'host') hosts++;
  }
  if (hosts < 2) return null;
  return `400 bad request: the request carries ${hosts} Host headers; send exactly one.`;
}
