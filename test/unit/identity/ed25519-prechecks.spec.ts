import { randomBytes } from 'node:crypto';
import { Point } from '@noble/ed25519';
import {
  hasSmallOrderEncoding,
  isCanonicalPointEncoding,
  isCanonicalScalar,
  passesSodiumPrechecks,
} from '../../../src/identity/ed25519-prechecks';

const { n: L, p: P } = Point.CURVE();

function le32(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0, rest = value; i < 32; i++, rest >>= 8n) out[i] = Number(rest & 0xffn);
  return out;
}

function signBit(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  out[31] |= 0x80;
  return out;
}

/** Small order decided by arithmetic: decode as OpenSSL does (y mod p) and multiply by 8. */
function smallOrderByArithmetic(bytes: Uint8Array): boolean {
  try {
    return Point.fromBytes(bytes, true).isSmallOrder();
  } catch {
    return false;
  }
}

describe('isCanonicalScalar', () => {
  it.each([
    ['0', true, 0n],
    ['1', true, 1n],
    ['L − 1', true, L - 1n],
    ['L', false, L],
    ['L + 1', false, L + 1n],
    ['2^252 − 1', true, 2n ** 252n - 1n],
    ['2^253', false, 2n ** 253n],
    ['2^256 − 1', false, 2n ** 256n - 1n],
  ])('S = %s → %s', (_label, canonical, s) => {
    expect(isCanonicalScalar(le32(s))).toBe(canonical);
  });
});

describe('isCanonicalPointEncoding', () => {
  it.each([
    ['0', true, 0n],
    ['p − 1', true, P - 1n],
    ['p', false, P],
    ['p + 1', false, P + 1n],
    ['2^255 − 1', false, 2n ** 255n - 1n],
  ])('y = %s → %s, whatever the sign bit', (_label, canonical, y) => {
    expect(isCanonicalPointEncoding(le32(y))).toBe(canonical);
    expect(isCanonicalPointEncoding(signBit(le32(y)))).toBe(canonical);
  });
});

describe('hasSmallOrderEncoding', () => {
  it('matches cofactor arithmetic on every y a small-order point can be spelt with, either sign', () => {
    const smallOrderYs = [0n, 1n, P - 1n, P, P + 1n];
    const t8 = findOrder8Point();
    smallOrderYs.push(t8.y, P - t8.y);
    for (const y of smallOrderYs) {
      for (const bytes of [le32(y), signBit(le32(y))]) {
        expect(smallOrderByArithmetic(bytes)).toBe(true);
        expect(hasSmallOrderEncoding(bytes)).toBe(true);
      }
    }
  });

  it('agrees with cofactor arithmetic on random curve points, random bytes and every y up to 64', () => {
    const samples: Uint8Array[] = [];
    for (let i = 0; i < 64; i++) samples.push(le32(BigInt(i)), le32(P - BigInt(i)), signBit(le32(BigInt(i))));
    for (let i = 0; i < 200; i++) samples.push(new Uint8Array(randomBytes(32)));
    for (let i = 1; i < 50; i++) samples.push(Point.BASE.multiply(BigInt(i) * 7919n, false).toBytes());
    for (const bytes of samples) {
      expect(hasSmallOrderEncoding(bytes)).toBe(smallOrderByArithmetic(bytes));
    }
  });
});

describe('passesSodiumPrechecks', () => {
  const honestKey = Point.BASE.multiply(12345n, false).toBytes();
  const honestR = Point.BASE.multiply(678n, false).toBytes();
  const sig = (r: Uint8Array, s: bigint) => Uint8Array.from([...r, ...le32(s)]);

  it('passes an ordinary key and signature', () => {
    expect(passesSodiumPrechecks(honestKey, sig(honestR, 5n))).toBe(true);
  });

  it('stops S ≥ L, small-order R, non-canonical A and small-order A', () => {
    expect(passesSodiumPrechecks(honestKey, sig(honestR, L))).toBe(false);
    expect(passesSodiumPrechecks(honestKey, sig(le32(1n), 5n))).toBe(false);
    expect(passesSodiumPrechecks(le32(P + 3n), sig(honestR, 5n))).toBe(false);
    expect(passesSodiumPrechecks(le32(P - 1n), sig(honestR, 5n))).toBe(false);
  });

  it('leaves a non-canonical R to the equation (the computed encoding never matches it)', () => {
    expect(passesSodiumPrechecks(honestKey, sig(le32(P + 3n), 5n))).toBe(true);
  });
});

function findOrder8Point(): Point {
  for (let y = 2n; ; y++) {
    try {
      const pt = Point.fromBytes(le32(y));
      const torsion = pt.multiply(L - 1n, false).add(pt);
      if (!torsion.multiply(4n, false).is0()) return torsion;
    } catch {
      // not a curve point: try the next y
    }
  }
}
