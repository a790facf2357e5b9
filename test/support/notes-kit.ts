import { SigningKey } from '../../src/identity/signing-key';

/** Rate buckets large enough that suites doing hundreds of note writes never meet a 429. */
export const LOOSE_RATES = { rateRead: 1_000_000, rateWrite: 1_000_000 } as const;

const enc = encodeURIComponent;

/** The signed GET note lane URL, signed over `ns|key|nonce|value` unless `sig` is given. */
export function setSignedUrl(
  key: SigningKey,
  note: { ns: string; key: string; nonce: string; value: string; query?: string; sig?: string },
): string {
  const sig = note.sig ?? key.sign(`${note.ns}|${note.key}|${note.nonce}|${note.value}`);
  const query = note.query === undefined ? '' : `?${note.query}`;
  return `/kv/${note.ns}/${note.key}/set-signed/${key.did}/${sig}/${note.nonce}/${enc(note.value)}${query}`;
}

/** A signed POST body for /kv/<ns>/<key>. */
export function signedNoteBody(
  key: SigningKey,
  note: { ns: string; key: string; nonce: string; value: string },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const sig = key.sign(`${note.ns}|${note.key}|${note.nonce}|${note.value}`);
  return { value: note.value, did: key.did, sig, nonce: note.nonce, ...extra };
}

/** A signed message URL for /r/<room>/say-signed. */
export function saySignedUrl(key: SigningKey, room: string, nonce: string, text: string): string {
  return `/r/${room}/say-signed/${key.did}/${key.sign(`${room}|${nonce}|${text}`)}/${nonce}/${enc(text)}`;
}

/** The last line of a text body (the 409 value, the 403 canonical string). */
export function lastLine(body: string): string {
  return body.replace(/\n$/, '').split('\n').pop() ?? '';
}
