import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CompressedBody, CompressedBodyMemo } from '../../../src/http/compression/compressed-body';
import { encodeIfSmaller, MIN_COMPRESSED_BYTES } from '../../../src/http/compression/content-coding';

const text = Buffer.from('{"seq":1,"from":"alice","text":"the same words again"}\n'.repeat(40));

describe('CompressedBody', () => {
  it('makes each coding once, on demand, and decodes to the plain bytes', () => {
    const grown: number[] = [];
    const body = new CompressedBody(text, (bytes) => grown.push(bytes));
    expect(body.heldBytes).toBe(text.length);
    const br = body.in('br')!;
    expect(body.in('br')).toBe(br);
    expect(brotliDecompressSync(br).equals(text)).toBe(true);
    const gzip = body.in('gzip')!;
    expect(body.in('gzip')).toBe(gzip);
    expect(gunzipSync(gzip).equals(text)).toBe(true);
    expect(grown).toEqual([br.length, gzip.length]);
    expect(body.heldBytes).toBe(text.length + br.length + gzip.length);
  });

  it('leaves bodies under the minimum plain, and bodies that would not shrink', () => {
    const small = new CompressedBody(Buffer.alloc(MIN_COMPRESSED_BYTES - 1, 'a'));
    expect(small.in('br')).toBeNull();
    expect(small.in('gzip')).toBeNull();
    expect(new CompressedBody(Buffer.alloc(MIN_COMPRESSED_BYTES, 'a')).in('gzip')).not.toBeNull();
    const noise = randomBytes(600); // incompressible
    expect(encodeIfSmaller(noise, 'gzip', 'per-request')).toBeNull();
  });

  it('memoises one body per Buffer, so a cache handing out the same Buffer compresses once', () => {
    const memo = new CompressedBodyMemo();
    const body = memo.of(text);
    expect(memo.of(text)).toBe(body);
    expect(memo.of(Buffer.from(text))).not.toBe(body); // another Buffer is another version
  });
});
