/**
 * The single-line sweep (contract §5): every code point of general category Cc, Cf, Cs, Co, Zl or Zp
 * becomes one space, then surrounding whitespace is trimmed. Internal spaces are kept and nothing is
 * normalised. Message texts and note values are stored exactly as swept.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/gu;

export function sweep(text: string): string {
  // After the replacement only category Zs remains strip-able, and String#trim removes exactly that set.
  return invisiblesToSpaces(text).trim();
}

/** The sweep's replacement step alone: every code point of the six categories becomes one space. */
export function invisiblesToSpaces(text: string): string {
  return text.replace(INVISIBLE, ' ');
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Length in Unicode code points (what the reference's len() counts), not UTF-16 units. */
export function codePointLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** The first `max` code points of `text` (slicing by code point, never splitting a pair). */
export function codePointSlice(text: string, max: number): string {
  if (!SURROGATE.test(text)) return text.slice(0, max);
  return Array.from(text).slice(0, max).join('');
}
