import { parseDidKey } from './did-key';
import { parseNonce } from './nonce';
import { decodeSignature } from './signature-encoding';
import { SignatureMismatchError } from './signature-mismatch.error';
import { SignatureVerifier } from './signature-verifier.service';

export interface SignedInput {
  readonly did: string;
  readonly sig: string;
  /** As sent (leading zeros kept): the signature covers this form. */
  readonly nonce: string;
}

/**
 * The signed-lane checks shared by messages and notes, in the reference's order (§8.1 steps 3–6):
 * nonce shape (400) → did:key (400) → signature encoding (400) → verification over `payload` (403).
 * The shape checks run before the first await, the verification on the verify pool.
 */
export async function assertSignature(
  verifier: SignatureVerifier,
  input: SignedInput,
  payload: (nonceAsSent: string) => string,
): Promise<void> {
  const nonce = parseNonce(input.nonce);
  const publicKey = parseDidKey(input.did);
  const signature = decodeSignature(input.sig);
  const message = payload(nonce);
  if (!(await verifier.verify(publicKey, Buffer.from(message, 'utf8'), signature))) {
    throw new SignatureMismatchError(input.did, message);
  }
}
