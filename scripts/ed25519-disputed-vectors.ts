import { Point } from '@noble/ed25519';
import * as kit from './ed25519-vector-kit';

/**
 * The vectors on which verifiers disagree: small-order keys and nonces, and torsion components.
 * Each one is crafted so that a weaker rule would accept it; `expected` is libsodium's verdict.
 */
export interface CraftedVector {
  name: string;
  reason: string;
  expected: boolean;
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

const SEARCH_LIMIT = 4096;
const TORSION_MULTIPLES = [0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n];

/**
 * The first message `<label> #<n>` for which `attempt` finds something. The tricks below hold for
 * one challenge k in 8 or so, and k is a hash of the message, so a few tries always suffice.
 */
function search<T>(label: string, attempt: (message: Uint8Array) => T | undefined): [Uint8Array, T] {
  for (let n = 0; n < SEARCH_LIMIT; n++) {
    const message = kit.utf8(`${label} #${n}`);
    const found = attempt(message);
    if (found !== undefined) return [message, found];
  }
  throw new Error(`no message found for ${label}`);
}

function signer(label: string): kit.HonestKey {
  return kit.honestKey(kit.sha512(kit.utf8(label)).slice(0, 32));
}

/**
 * Small-order A, every spelling. With R = B − jT and S = 1, [S]B − [k]A = B − kT = R once
 * k ≡ j (mod ord T): the cofactorless equation holds and only the small-order refusal remains.
 */
export function smallOrderKeyVectors(): CraftedVector[] {
  return kit.smallOrderEncodings().map(({ label, bytes }) => {
    const torsion = kit.decodeLenient(bytes);
    const [message, encodedR] = search(
      `small-order key ${label}`,
      (m) =>
        TORSION_MULTIPLES.map((j) => ({
          j,
          encodedR: Point.BASE.subtract(torsion.multiply(j, false)).toBytes(),
        })).find(({ j, encodedR }) => {
          const k = kit.challenge(encodedR, bytes, m);
          return torsion.multiply(k % 8n, false).equals(torsion.multiply(j, false));
        })?.encodedR,
    );
    return {
      name: `small-order A: ${label}`,
      reason: 'A has small order: libsodium refuses the key whatever the equation says',
      expected: false,
      publicKey: bytes,
      message,
      signature: kit.concat(encodedR, kit.le32(1n)),
    };
  });
}

export function smallOrderNonceVectors(): CraftedVector[] {
  const key = signer('small-order R signer');
  const identity = kit.le32(1n);
  const message = kit.utf8('R is the identity');
  const signAs = (encodedA: Uint8Array, encodedR: Uint8Array, m: Uint8Array) =>
    kit.signWith({ key, encodedA, r: 0n, encodedR, message: m });
  const torsionKey = key.point.add(kit.TORSION_8).toBytes();
  const [torsionMessage, order8R] = search(
    'small-order R with torsioned key',
    (m) =>
      TORSION_MULTIPLES.slice(1)
        .map((j) => ({ j, encodedR: kit.TORSION_8.multiply(j, false).toBytes() }))
        .find(({ j, encodedR }) => (kit.challenge(encodedR, torsionKey, m) + j) % 8n === 0n)?.encodedR,
  );
  const zero = new Uint8Array(32);
  const [zeroMessage] = search('all-zero key and signature', (m) =>
    kit.challenge(zero, zero, m) % 4n === 3n ? true : undefined,
  );
  const order8 = kit.TORSION_8.toBytes();
  return [
    {
      name: 'small-order R: identity, S = k·a',
      reason:
        'the key holder signs with r = 0; OpenSSL and both noble modes accept, libsodium refuses small-order R',
      expected: false,
      publicKey: key.publicKey,
      message,
      signature: signAs(key.publicKey, identity, message),
    },
    {
      name: 'small-order R: identity spelt with the sign bit',
      reason: 'x = 0 with the sign bit set: on libsodium’s blacklist, and never equal to a computed encoding',
      expected: false,
      publicKey: key.publicKey,
      message,
      signature: signAs(key.publicKey, kit.withSignBit(identity), message),
    },
    {
      name: 'small-order R: order-8 R with a torsioned key',
      reason:
        'A = aB + T, R = jT with k ≡ −j (mod 8), S = k·a: the cofactorless equation holds; libsodium refuses small-order R',
      expected: false,
      publicKey: torsionKey,
      message: torsionMessage,
      signature: signAs(torsionKey, order8R, torsionMessage),
    },
    {
      name: 'small-order A and R, S = 0',
      reason: 'A = R = T (order 8), S = 0: every cofactored verifier accepts any message; libsodium refuses',
      expected: false,
      publicKey: order8,
      message: kit.utf8('any message at all'),
      signature: kit.concat(order8, kit.le32(0n)),
    },
    {
      name: 'all-zero key and signature',
      reason: 'A = R = (√−1, 0) of order 4, S = 0, k ≡ 3 (mod 4): OpenSSL alone accepts 96 zero bytes',
      expected: false,
      publicKey: zero,
      message: zeroMessage,
      signature: new Uint8Array(64),
    },
  ];
}

/** Torsion components in A or R: cofactored verifiers ignore them, the cofactorless equation does not. */
export function torsionVectors(): CraftedVector[] {
  const key = signer('torsion signer');
  const torsionKey = key.point.add(kit.TORSION_8).toBytes();
  const r = kit.scalarFrom('torsion nonce');
  const honestR = Point.BASE.multiply(r, false);
  const signAs = (encodedA: Uint8Array, encodedR: Uint8Array, message: Uint8Array) =>
    kit.signWith({ key, encodedA, r, encodedR, message });
  const kMod8 = (encodedR: Uint8Array, m: Uint8Array) => kit.challenge(encodedR, torsionKey, m) % 8n;
  const plainR = honestR.toBytes();
  const [rejected] = search('torsion in A, k not 0 mod 8', (m) =>
    kMod8(plainR, m) !== 0n ? true : undefined,
  );
  const [accepted] = search('torsion in A, k = 0 mod 8', (m) => (kMod8(plainR, m) === 0n ? true : undefined));
  const torsionR = honestR.add(kit.TORSION_8).toBytes();
  const rMessage = kit.utf8('torsion in R');
  const [bothMessage, cancellingR] = search(
    'torsion in A and R, cancelling',
    (m) =>
      TORSION_MULTIPLES.slice(1)
        .map((j) => ({ j, encodedR: honestR.add(kit.TORSION_8.multiply(j, false)).toBytes() }))
        .find(({ j, encodedR }) => (kMod8(encodedR, m) + j) % 8n === 0n)?.encodedR,
  );
  return [
    {
      name: 'torsion in A, k ≢ 0 (mod 8)',
      reason:
        'A = aB + T signed honestly: [S]B − [k]A = R − kT ≠ R; cofactored verifiers accept, libsodium refuses',
      expected: false,
      publicKey: torsionKey,
      message: rejected,
      signature: signAs(torsionKey, plainR, rejected),
    },
    {
      name: 'torsion in A, k ≡ 0 (mod 8)',
      reason:
        'A = aB + T signed honestly with kT = 0: libsodium does not test the subgroup of A, so it accepts',
      expected: true,
      publicKey: torsionKey,
      message: accepted,
      signature: signAs(torsionKey, plainR, accepted),
    },
    {
      name: 'torsion in R',
      reason:
        'R = rB + T with an honest key: [S]B − [k]A encodes rB ≠ R; cofactored verifiers accept, libsodium refuses',
      expected: false,
      publicKey: key.publicKey,
      message: rMessage,
      signature: signAs(key.publicKey, torsionR, rMessage),
    },
    {
      name: 'torsion in A and R, cancelling',
      reason:
        'A = aB + T, R = rB + jT with k ≡ −j (mod 8): the cofactorless equation holds and libsodium accepts',
      expected: true,
      publicKey: torsionKey,
      message: bothMessage,
      signature: signAs(torsionKey, cancellingR, bothMessage),
    },
  ];
}
