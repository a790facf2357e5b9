/** The header budget (contract §1.1): counted over the raw header list, duplicates included. */
export interface HeaderLimits {
  readonly maxHeaders: number;
  readonly maxHeaderBytes: number;
}

/**
 * The 431 body (contract §14) when the header block is over either limit, else null. Bytes are
 * counted the reference's way: name + value + 4 (": " and CRLF) per header. `rawHeaders` alternates
 * names and values as Node received them (latin1, so `length` is the byte count).
 */
export function headerBlockRefusal(rawHeaders: readonly string[], limits: HeaderLimits): string | null {
  const count = rawHeaders.length / 2;
  let bytes = 0;
  for (const part of rawHeaders) bytes += part.length;
  bytes += 4 * count;
  if (count <= limits.maxHeaders && bytes <= limits.maxHeaderBytes) return null;
  return (
    `431 header block too large: received ${count} headers totalling ${bytes} bytes, and the maxima are ` +
    `${limits.maxHeaders} headers and ${limits.maxHeaderBytes} bytes. Nothing in this protocol needs a ` +
    'header: send the request with Host alone (and Content-Type for a POST) and it will be served.'
  );
}
