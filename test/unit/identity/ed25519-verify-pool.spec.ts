import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync, sign } from 'node:crypto';
import { Ed25519Vector } from '../../../scripts/gen-ed25519-vectors';
import * as kit from '../../../scripts/ed25519-vector-kit';
import { verifyEd25519 } from '../../../src/identity/ed25519-verifier';
import { Ed25519VerifyPool } from '../../../src/identity/verify-pool/ed25519-verify-pool';
import { decodeBatch, encodeBatch } from '../../../src/identity/verify-pool/verify-batch.codec';

/**
 * The verify pool must give exactly verifyEd25519's verdicts (libsodium's, pinned by the acceptance
 * vectors) whichever thread computes them, release them in request order, and survive its workers
 * stopping with requests in flight.
 */
const vectors: Ed25519Vector[] = JSON.parse(
  readFileSync(join(__dirname, '..', '..', 'vectors', 'ed25519-acceptance.json'), 'utf8'),
);
const bytesOf = (v: Ed25519Vector) =>
  [v.publicKey, v.message, v.signature].map((h) => kit.fromHex(h)) as [Uint8Array, Uint8Array, Uint8Array];

describe('Ed25519VerifyPool', () => {
  let pool: Ed25519VerifyPool | undefined;
  afterEach(async () => pool?.close());

  it.each([0, 1, 2])(
    'gives every acceptance vector its expected verdict with %i workers',
    async (workers) => {
      pool = new Ed25519VerifyPool({ workers, maxBatch: 3 });
      // Twice over, all at once: several batches in flight on every worker.
      const all = [...vectors, ...vectors];
      const verdicts = await Promise.all(all.map((v) => pool!.verify(...bytesOf(v))));
      expect(all.map((v, i) => ({ name: v.name, verdict: verdicts[i] }))).toEqual(
        all.map((v) => ({ name: v.name, verdict: v.expected })),
      );
      expect(all.map((v) => verifyEd25519(...bytesOf(v)))).toEqual(verdicts);
    },
  );

  it('refuses wrong-length keys and signatures like verifyEd25519', async () => {
    pool = new Ed25519VerifyPool({ workers: 1 });
    const [publicKey, message, signature] = bytesOf(vectors.find((v) => v.expected)!);
    await expect(pool.verify(publicKey, message, signature)).resolves.toBe(true);
    await expect(pool.verify(publicKey.slice(0, 31), message, signature)).resolves.toBe(false);
    await expect(pool.verify(publicKey, message, signature.slice(0, 63))).resolves.toBe(false);
  });

  it('releases verdicts in request order, even when a later batch is answered first', async () => {
    pool = new Ed25519VerifyPool({ workers: 2, maxBatch: 1 });
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(12));
    // A long first message keeps its worker busy longer than the short ones on the other worker.
    const messages = [
      Buffer.alloc(4 << 20, 7),
      ...Array.from({ length: 20 }, (_, i) => Buffer.from(`m${i}`)),
    ];
    const released: number[] = [];
    await Promise.all(
      messages.map((message, i) =>
        pool!
          .verify(raw, message, new Uint8Array(sign(null, message, privateKey)))
          .then((verdict) => released.push(verdict ? i : -1)),
      ),
    );
    expect(released).toEqual(messages.map((_, i) => i));
  });

  it('verifies on the calling thread what its stopped workers had not answered', async () => {
    pool = new Ed25519VerifyPool({ workers: 2, maxBatch: 2 });
    const inFlight = Promise.all(vectors.map((v) => pool!.verify(...bytesOf(v))));
    await new Promise((resolve) => setImmediate(resolve)); // batches are now posted to the workers
    await pool.close();
    expect(await inFlight).toEqual(vectors.map((v) => v.expected));
    // Closed, it keeps answering on the calling thread.
    await expect(pool.verify(...bytesOf(vectors[0]))).resolves.toBe(vectors[0].expected);
  });
});

describe('verify batch codec', () => {
  it('round-trips keys, signatures and messages of any length, empty included', () => {
    const items = vectors
      .map(bytesOf)
      .map(([publicKey, message, signature]) => ({ publicKey, message, signature }));
    const decoded = decodeBatch(encodeBatch(items));
    expect(
      decoded.map((d) => [d.publicKey, d.message, d.signature].map((b) => Buffer.from(b).toString('hex'))),
    ).toEqual(
      items.map((d) => [d.publicKey, d.message, d.signature].map((b) => Buffer.from(b).toString('hex'))),
    );
  });
});
