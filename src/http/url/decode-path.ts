/**
 * The reference routes on the percent-decoded path (contract §1.1): `%2F` becomes a real `/` and
 * changes the route, malformed UTF-8 becomes U+FFFD (never a 400), `+` stays `+`. Fastify's router
 * matches the encoded path and decodes parameters afterwards, so `rewriteUrl` decodes the path the
 * reference's way and re-encodes only what the router must not interpret (`%`, `?`, `#`, spaces,
 * controls and non-ASCII); the router then splits on the real slashes and hands back exact parameters.
 */
const NEEDS_DECODING = /[%\u0080-\u00ff]/;
const NEEDS_ENCODING = /[^\x21-\x7e]|[%?#]/gu;

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Percent-decodes a raw request path to text (UTF-8, U+FFFD for malformed sequences). */
export function decodePath(raw: string): string {
  if (!NEEDS_DECODING.test(raw)) return raw;
  const bytes = Buffer.allocUnsafe(raw.length);
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 0x25 && i + 2 < raw.length) {
      const high = hexValue(raw.charCodeAt(i + 1));
      const low = hexValue(raw.charCodeAt(i + 2));
      if (high >= 0 && low >= 0) {
        bytes[n++] = high * 16 + low;
        i += 2;
        continue;
      }
    }
    bytes[n++] = code & 0xff; // Node hands the request line over as latin1: one char per raw byte
  }
  return bytes.toString('utf8', 0, n);
}

/** Encodes decoded path text so the router sees real slashes only where the decoded path has them. */
export function encodeForRouter(decoded: string): string {
  return decoded.replace(NEEDS_ENCODING, (ch) => encodeURIComponent(ch));
}

/** Fastify `rewriteUrl`: same URL when nothing is encoded, else the decoded-then-re-encoded path + query. */
export function rewriteUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (!NEEDS_DECODING.test(path)) return url;
  return encodeForRouter(decodePath(path)) + (q < 0 ? '' : url.slice(q));
}

/** The decoded path of a request URL (query removed), as the route table matches it. */
export function requestPath(url: string): string {
  const q = url.indexOf('?');
  return decodePath(q < 0 ? url : url.slice(0, q));
}
