import { ContentCoding, encodeIfSmaller } from './content-coding';

/**
 * A cached reply body kept together with its encoded forms: each coding is made once, on the first
 * request that asks for it, at the `cached` effort, and reused by every later request for the same
 * version. `plain` must never be mutated. `onGrow` lets a byte-budgeted cache count the encoded
 * bytes it now holds as well (RoomReplyCache).
 */
export class CompressedBody {
  /** undefined: not made yet; null: the body stays plain in that coding (too small, or no gain). */
  private br: Buffer | null | undefined;
  private gzip: Buffer | null | undefined;

  constructor(
    readonly plain: Buffer,
    private readonly onGrow?: (bytes: number) => void,
  ) {}

  /** Bytes held: the plain body and the encoded forms made so far. */
  get heldBytes(): number {
    return this.plain.length + (this.br?.length ?? 0) + (this.gzip?.length ?? 0);
  }

  /** The body in `coding`, or null when it is to be sent plain. */
  in(coding: ContentCoding): Buffer | null {
    const known = coding === 'br' ? this.br : this.gzip;
    if (known !== undefined) return known;
    const encoded = encodeIfSmaller(this.plain, coding, 'cached');
    if (coding === 'br') this.br = encoded;
    else this.gzip = encoded;
    if (encoded !== null) this.onGrow?.(encoded.length);
    return encoded;
  }
}

/**
 * A CompressedBody per Buffer, for caches that hand out the same Buffer for as long as a version is
 * valid (DocumentsService, ListingService): they get compression once per version without knowing
 * about it. Weak keys: when the cache drops a Buffer, its encodings go with it.
 */
export class CompressedBodyMemo {
  private readonly bodies = new WeakMap<Buffer, CompressedBody>();

  of(plain: Buffer): CompressedBody {
    let body = this.bodies.get(plain);
    if (body === undefined) this.bodies.set(plain, (body = new CompressedBody(plain)));
    return body;
  }
}
