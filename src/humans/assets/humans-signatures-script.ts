/**
 * The part of the /humans script that checks a signed message in the browser (issue 29), kept in its
 * own string module so a unit test can run exactly these bytes under Node's WebCrypto. It rebuilds
 * what the signature covers from the record alone (contract §6.2: `<room>|<nonce>|<text>`, the nonce
 * as the decimal digits of the stored integer, the text as stored, UTF-8) and asks
 * `crypto.subtle.verify('Ed25519', …)`. It defines three functions in the enclosing scope:
 * `parseRecordJson(text)`, `isSignedRecord(record)` and `signatureMark(room, record)`, the latter
 * resolving to `'verified'`, `'invalid'` or `'unchecked'` (no WebCrypto Ed25519, e.g. outside a
 * secure context, a pre-0.11 record without `sig`, or a nonce whose digits were lost).
 */
export const HUMANS_SIGNATURES_SCRIPT = String.raw`
  var BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  var DID_KEY = /^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{44}$/;
  var SIGNATURE = /^[A-Za-z0-9_-]{85}[AQgw]$/;
  var verifyKeys = {};

  /**
   * Nonces are stored as integers that may pass 2^53; where the browser hands the reviver the source
   * text (JSON.parse source access) the exact digits are kept as a string.
   */
  function parseRecordJson(text) {
    return JSON.parse(text, function (key, value, context) {
      return key === 'nonce' && context && typeof context.source === 'string' ? context.source : value;
    });
  }
  function isSignedRecord(m) {
    return typeof m.from === 'string' && DID_KEY.test(m.from) && m.nonce !== undefined;
  }
  function base58(text) {
    var bytes = [];
    for (var i = 0; i < text.length; i++) {
      var carry = BASE58.indexOf(text[i]);
      if (carry < 0) return null;
      for (var j = 0; j < bytes.length; j++) {
        carry += bytes[j] * 58;
        bytes[j] = carry & 255;
        carry >>= 8;
      }
      for (; carry > 0; carry >>= 8) bytes.push(carry & 255);
    }
    for (var k = 0; k < text.length && text[k] === '1'; k++) bytes.push(0);
    return new Uint8Array(bytes.reverse());
  }
  function base64url(text) {
    var binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }
  /** The 32-byte key of a did:key (multicodec 0xED 0x01), or null when it spells no such key. */
  function publicKeyOf(did) {
    var decoded = base58(did.slice('did:key:z'.length));
    if (!decoded || decoded.length !== 34 || decoded[0] !== 0xed || decoded[1] !== 0x01) return null;
    return decoded.slice(2);
  }
  /** Imported once per signer: a room's messages come from a few keys. */
  function verifyKey(publicKey, did) {
    if (!verifyKeys[did]) verifyKeys[did] = crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
    return verifyKeys[did];
  }
  function nonceDigits(nonce) {
    if (typeof nonce === 'string') return /^[0-9]+$/.test(nonce) ? nonce : null;
    return Number.isSafeInteger(nonce) && nonce >= 0 ? String(nonce) : null;
  }
  async function signatureMark(room, m) {
    var digits = nonceDigits(m.nonce);
    if (typeof m.sig !== 'string' || digits === null || typeof m.text !== 'string') return 'unchecked';
    var publicKey = publicKeyOf(m.from);
    if (!SIGNATURE.test(m.sig) || publicKey === null) return 'invalid';
    if (typeof crypto === 'undefined' || !crypto.subtle) return 'unchecked';
    var key;
    try {
      key = await verifyKey(publicKey, m.from);
    } catch (error) {
      return 'unchecked'; // this browser has no Ed25519 in WebCrypto
    }
    var payload = new TextEncoder().encode(room + '|' + digits + '|' + m.text);
    try {
      return (await crypto.subtle.verify('Ed25519', key, base64url(m.sig), payload)) ? 'verified' : 'invalid';
    } catch (error) {
      return 'unchecked';
    }
  }
`;
