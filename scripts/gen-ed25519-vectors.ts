import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Point } from '@noble/ed25519';
import {
  CraftedVector,
  smallOrderKeyVectors,
  smallOrderNonceVectors,
  torsionVectors,
} from './ed25519-disputed-vectors';
import * as kit from './ed25519-vector-kit';

/**
 * Writes test/vectors/ed25519-acceptance.json: Ed25519 inputs with libsodium's verdict
 * (`expected`, as crypto_sign_verify_detached decides, contract §8.6) and, as evidence of why the
 * server needs its own prechecks, what OpenSSL alone and @noble/ed25519 decide. Deterministic:
 * rerunning reproduces the file, and a unit test holds the two in step.
 *
 * Run from the repository root (Node ≥ 20.19 loads the ESM-only @noble packages through require):
 *   npx tsc --outDir dist/scripts --module commonjs --moduleResolution node10 --target es2022 \
 *     --esModuleInterop --skipLibCheck scripts/gen-ed25519-vectors.ts
 *   node dist/scripts/gen-ed25519-vectors.js
 */
export interface Ed25519Vector {
  name: string;
  reason: string;
  publicKey: string;
  message: string;
  signature: string;
  /** libsodium's verdict: what the server must decide. */
  expected: boolean;
  /** node:crypto / OpenSSL without prechecks. */
  opensslAlone: boolean;
  /** @noble/ed25519 verify() defaults (ZIP-215, cofactored). */
  nobleZip215: boolean;
  /** @noble/ed25519 verify() with zip215:false (RFC decoding, small-order A refused, cofactored). */
  nobleStrict: boolean;
}

const RFC8032 = [
  {
    seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    message: '',
    signature:
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    message: '72',
    signature:
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
  {
    seed: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    message: 'af82',
    signature:
      '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
  },
].map((v, i) => ({ ...v, key: kit.honestKey(kit.fromHex(v.seed)), name: `RFC 8032 test ${i + 1}` }));

function honestVectors(): CraftedVector[] {
  const rfc = RFC8032.map((v) => ({
    name: v.name,
    reason: 'RFC 8032 section 7.1 vector: a valid signature',
    expected: true,
    publicKey: v.key.publicKey,
    message: kit.fromHex(v.message),
    signature: kit.fromHex(v.signature),
  }));
  const signer = kit.honestKey(kit.sha512(kit.utf8('signed-lane signer')).slice(0, 32));
  const payloads = ['d-lab|007|héllo wörld — ünïcode ✓', 'room-owners|d-lab|1712000000000|did:key:z6Mk'];
  const project = payloads.map((payload, i) => {
    const message = kit.utf8(payload);
    const r = kit.scalarFrom(`nonce ${i}`);
    const encodedR = Point.BASE.multiply(r, false).toBytes();
    const signature = kit.signWith({ key: signer, encodedA: signer.publicKey, r, encodedR, message });
    return {
      name: `signed-lane payload ${i + 1}`,
      reason: 'a valid signature over a UTF-8 payload',
      expected: true,
      publicKey: signer.publicKey,
      message,
      signature,
    };
  });
  return [...rfc, ...project];
}

function malformedVectors(): CraftedVector[] {
  const [one, two, three] = RFC8032;
  const sig1 = kit.fromHex(one.signature);
  const s1 = kit.littleEndian(sig1.subarray(32));
  const highS = kit.le32(s1);
  highS[31] |= 0xe0;
  const flippedA = Uint8Array.from(one.key.publicKey);
  flippedA[31] ^= 0x80;
  const negatedR = Uint8Array.from(sig1);
  negatedR[31] ^= 0x80;
  const base = { expected: false, message: kit.fromHex(one.message) };
  return [
    {
      ...base,
      name: 'S + L',
      reason: 'malleated S (S + L): S must be below L',
      publicKey: one.key.publicKey,
      signature: kit.concat(sig1.subarray(0, 32), kit.le32(s1 + kit.GROUP_ORDER)),
    },
    {
      ...base,
      name: 'S >= 2^253',
      reason: 'non-canonical S with the top three bits set',
      publicKey: one.key.publicKey,
      signature: kit.concat(sig1.subarray(0, 32), highS),
    },
    {
      ...base,
      name: 'wrong message',
      reason: 'a valid signature checked against another message',
      publicKey: two.key.publicKey,
      message: kit.fromHex('73'),
      signature: kit.fromHex(two.signature),
    },
    {
      ...base,
      name: 'wrong key',
      reason: 'a valid signature checked against another key',
      publicKey: three.key.publicKey,
      message: kit.fromHex(two.message),
      signature: kit.fromHex(two.signature),
    },
    {
      ...base,
      name: 'negated A',
      reason: 'the key with its sign bit flipped is another point',
      publicKey: flippedA,
      signature: sig1,
    },
    {
      ...base,
      name: 'negated R',
      reason: 'R with its sign bit flipped is another point',
      publicKey: one.key.publicKey,
      signature: negatedR,
    },
    {
      ...base,
      name: 'A off the curve',
      reason: 'y = 2 is not the y of any curve point',
      publicKey: kit.le32(2n),
      signature: sig1,
    },
    {
      ...base,
      name: 'A non-canonical (y = p + 3)',
      reason: 'A encodes y >= p; libsodium refuses it before any arithmetic',
      publicKey: kit.le32(kit.FIELD_PRIME + 3n),
      signature: kit.concat(Point.BASE.toBytes(), kit.le32(1n)),
    },
    {
      ...base,
      name: 'R non-canonical (y = p + 3)',
      reason: 'R encodes y >= p; the computed R is always canonical, so bytes never match',
      publicKey: one.key.publicKey,
      signature: kit.concat(kit.le32(kit.FIELD_PRIME + 3n), sig1.subarray(32)),
    },
  ];
}

export async function buildEd25519Vectors(): Promise<Ed25519Vector[]> {
  const crafted = [
    ...honestVectors(),
    ...malformedVectors(),
    ...smallOrderKeyVectors(),
    ...smallOrderNonceVectors(),
    ...torsionVectors(),
  ];
  const vectors: Ed25519Vector[] = [];
  for (const v of crafted) {
    vectors.push({
      name: v.name,
      reason: v.reason,
      publicKey: kit.hex(v.publicKey),
      message: kit.hex(v.message),
      signature: kit.hex(v.signature),
      expected: v.expected,
      opensslAlone: kit.opensslAlone(v.publicKey, v.message, v.signature),
      ...(await kit.nobleVerdicts(v.publicKey, v.message, v.signature)),
    });
  }
  return vectors;
}

/** Relative to the repository root, where the script is run from. */
export const VECTORS_PATH = join('test', 'vectors', 'ed25519-acceptance.json');

export function renderVectors(vectors: Ed25519Vector[]): string {
  return JSON.stringify(vectors, null, 2) + '\n';
}

if (require.main === module) {
  void buildEd25519Vectors().then((vectors) => writeFileSync(VECTORS_PATH, renderVectors(vectors)));
}
