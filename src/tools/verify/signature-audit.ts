import { MessageAppended } from '../../events/chat-event';
import { parseDidKey } from '../../identity/did-key';
import { verifyEd25519 } from '../../identity/ed25519-verifier';
import { messageSigningPayload } from '../../identity/signing-payload';
import { decodeSignature } from '../../identity/signature-encoding';

/** The most digits a nonce may have (contract §8.1): bounds the leading-zero forms tried below. */
const NONCE_MAX_DIGITS = 19;

interface SignedLine {
  readonly from: string;
  readonly text: string;
  readonly sig: string;
}

/**
 * Re-verifies a signed message record under the signed lane's rules: the record's `from` did:key must
 * have signed `room|nonce|text` (verifyEd25519: the same verdicts as the lane). The record keeps the
 * nonce as an integer, while the signature covers the nonce as sent, so a nonce sent with leading
 * zeros (`007`) is found by trying each zero-padded form up to the 19-digit limit. Returns why the
 * record fails, or null when it verifies (or is unsigned).
 */
export function signedRecordFailure(event: MessageAppended): string | null {
  if (event.nonce === undefined) return null;
  let line: SignedLine;
  let publicKey: Uint8Array;
  let signature: Uint8Array;
  try {
    line = JSON.parse(event.record) as SignedLine;
    publicKey = parseDidKey(line.from);
    signature = decodeSignature(line.sig);
  } catch (error) {
    return `signed record cannot be checked: ${(error as Error).message}`;
  }
  for (let digits = event.nonce.length; digits <= NONCE_MAX_DIGITS; digits++) {
    const nonce = event.nonce.padStart(digits, '0');
    const payload = Buffer.from(messageSigningPayload(event.room, nonce, line.text), 'utf8');
    if (verifyEd25519(publicKey, payload, signature)) return null;
  }
  return `signature of seq ${event.seq} does not verify: ${line.from} did not sign ${JSON.stringify(
    messageSigningPayload(event.room, event.nonce, line.text),
  )}`;
}
