import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import { Transform } from 'node:stream';

/** The codings this server answers with (contract §1.1): brotli and gzip. */
export type ContentCoding = 'br' | 'gzip';

/**
 * Bodies shorter than this go out as they are (contract §1.1: the reference's compression middleware
 * leaves bodies under about 500 bytes alone): headers and framing would eat most of the saving.
 */
export const MIN_COMPRESSED_BYTES = 500;

/**
 * How hard to compress. `cached`: once per cached version of a reply (room reads, the listing,
 * documents), so it can afford more; `per-request`: replies made for one request (writes, long-polls,
 * footers, errors, exports), where the cheapest level is the right trade. Measured on this machine
 * (docs/decisions.md): a 7 KB room reply costs ~50 µs at brotli 1 or gzip 1 and ~170 µs at brotli 5;
 * brotli 11 would take 9 ms for it and 40 ms for /openapi.json, blocking the event loop for a few
 * percent fewer bytes, so no level above 5 is used.
 */
export type CompressionEffort = 'cached' | 'per-request';

const BROTLI_QUALITY: Readonly<Record<CompressionEffort, number>> = { cached: 5, 'per-request': 1 };
const GZIP_LEVEL: Readonly<Record<CompressionEffort, number>> = { cached: 6, 'per-request': 1 };

function brotliOptions(effort: CompressionEffort, sizeHint: number) {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, // every body served is text
      [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint,
    },
  };
}

/** `plain` in `coding`, or null when it is below the minimum or the coding would not shrink it. */
export function encodeIfSmaller(
  plain: Buffer,
  coding: ContentCoding,
  effort: CompressionEffort,
): Buffer | null {
  if (plain.length < MIN_COMPRESSED_BYTES) return null;
  const encoded =
    coding === 'br'
      ? brotliCompressSync(plain, brotliOptions(effort, plain.length))
      : gzipSync(plain, { level: GZIP_LEVEL[effort] });
  return encoded.length < plain.length ? encoded : null;
}

/** A compressing stream for bodies of unknown length (exports), at the per-request effort. */
export function encodingStream(coding: ContentCoding): Transform {
  return coding === 'br'
    ? createBrotliCompress(brotliOptions('per-request', 0))
    : createGzip({ level: GZIP_LEVEL['per-request'] });
}
