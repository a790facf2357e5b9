import { HUMANS_SIGNATURES_SCRIPT } from '../../../src/humans/assets/humans-signatures-script';
import { messageSigningPayload } from '../../../src/identity/signing-payload';
import { generateSigningKey } from '../../../src/identity/signing-key';

interface Record {
  seq: number;
  ts: string;
  from: string;
  text: string;
  nonce?: number | string;
  sig?: string;
}
interface PageSignatures {
  signatureMark(room: string, record: Record): Promise<string>;
  isSignedRecord(record: Record): boolean;
}

/**
 * The page's signature check, the very bytes the browser runs, under Node's WebCrypto (the same
 * `crypto.subtle.verify('Ed25519', …)`). The service refuses a bad signature at write time, so a
 * tampered record can only reach the page from a rewritten disk: fed here directly.
 */
const page = new Function(
  `${HUMANS_SIGNATURES_SCRIPT}\nreturn { signatureMark: signatureMark, isSignedRecord: isSignedRecord };`,
)() as PageSignatures;

describe('/humans signature marks', () => {
  const key = generateSigningKey();
  const other = generateSigningKey();
  const signed = (room: string, nonce: string, text: string, by = key): Record => ({
    seq: 3,
    ts: '2026-11-27T18:00:00.000000Z',
    from: key.did,
    text,
    nonce: Number(nonce),
    sig: by.sign(messageSigningPayload(room, nonce, text)),
  });

  it('verifies a record signed over room|nonce|text with the key in from', async () => {
    expect(await page.signatureMark('lobby', signed('lobby', '42', 'hello | world ✓'))).toBe('verified');
  });

  it('says invalid when the text, nonce, room, signer or signature was changed', async () => {
    const record = signed('lobby', '42', 'hello');
    expect(await page.signatureMark('lobby', { ...record, text: 'hellO' })).toBe('invalid');
    expect(await page.signatureMark('lobby', { ...record, nonce: 43 })).toBe('invalid');
    expect(await page.signatureMark('other', record)).toBe('invalid');
    expect(await page.signatureMark('lobby', signed('lobby', '42', 'hello', other))).toBe('invalid');
    const flipped = (record.sig![0] === 'A' ? 'B' : 'A') + record.sig!.slice(1);
    expect(await page.signatureMark('lobby', { ...record, sig: flipped })).toBe('invalid');
    expect(await page.signatureMark('lobby', { ...record, sig: 'not a signature' })).toBe('invalid');
  });

  it('says unchecked where the record cannot be checked from itself', async () => {
    const record = signed('lobby', '42', 'hello');
    expect(await page.signatureMark('lobby', { ...record, sig: undefined })).toBe('unchecked'); // before 0.11
    // A nonce past 2^53 parsed as a number has lost digits (browsers with JSON source access keep them).
    expect(await page.signatureMark('lobby', { ...record, nonce: 2 ** 60 })).toBe('unchecked');
    expect(await page.signatureMark('lobby', { ...record, nonce: '9007199254740993' })).toBe('invalid');
  });

  it('treats only did:key senders with a nonce as signed', () => {
    const record = signed('lobby', '1', 'x');
    expect(page.isSignedRecord(record)).toBe(true);
    expect(page.isSignedRecord({ ...record, from: 'ann' })).toBe(false);
    expect(page.isSignedRecord({ ...record, nonce: undefined })).toBe(false);
  });
});
