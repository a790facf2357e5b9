import { performance } from 'node:perf_hooks';
import { parseDidKey } from '../src/identity/did-key';
import { verifyEd25519Reference } from '../src/identity/ed25519-reference-verifier';
import { verifyEd25519 } from '../src/identity/ed25519-verifier';
import { decodeSignature } from '../src/identity/signature-encoding';
import { generateSigningKey } from '../src/identity/signing-key';

/**
 * Ed25519 verifications per second: the request-path verifier (byte prechecks + OpenSSL with cached
 * key imports) against the noble-arithmetic reference, plus the fast path with every key new (each
 * call pays a JWK import) to show what the key cache is worth.
 *
 * Run from the repository root:
 *   npx tsc --outDir dist/bench-build --module commonjs --moduleResolution node10 --target es2022 \
 *     --esModuleInterop --skipLibCheck bench/verify.bench.ts
 *   node dist/bench-build/bench/verify.bench.js [seconds per row, default 2]
 */
type Verify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;

interface Case {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

function makeCases(count: number): Case[] {
  return Array.from({ length: count }, (_, i) => {
    const key = generateSigningKey();
    const payload = `bench-room|${1712000000000 + i}|a typical message of about sixty characters, nothing more`;
    return {
      publicKey: parseDidKey(key.did),
      message: new Uint8Array(Buffer.from(payload, 'utf8')),
      signature: decodeSignature(key.sign(payload)),
    };
  });
}

/** Runs `verify` over the cases round-robin for about `seconds`; returns verifications per second. */
function rate(verify: Verify, cases: Case[], seconds: number): number {
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let done = 0;
  while (performance.now() < deadline) {
    for (let i = 0; i < 50; i++) {
      const c = cases[done % cases.length];
      if (!verify(c.publicKey, c.message, c.signature)) throw new Error('a valid signature failed to verify');
      done++;
    }
  }
  return done / ((performance.now() - started) / 1000);
}

function main(): void {
  const seconds = Number(process.argv[2] ?? '2');
  const warm = makeCases(64);
  // More distinct keys than the 1024-entry key cache holds, so round-robin misses every time.
  const cold = makeCases(4096);
  rate(verifyEd25519, warm, 0.3); // warm-up: JIT and key imports
  const rows: [string, number][] = [
    ['fast path, cached keys (64 signers)', rate(verifyEd25519, warm, seconds)],
    ['fast path, a new key every call', rate(verifyEd25519, cold, seconds)],
    ['reference (noble arithmetic)', rate(verifyEd25519Reference, warm, seconds)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  process.stdout.write(`node ${process.version}, OpenSSL ${process.versions.openssl}\n`);
  for (const [label, perSecond] of rows) {
    process.stdout.write(
      `${label.padEnd(width)}  ${Math.round(perSecond).toString().padStart(7)} verifications/s\n`,
    );
  }
}

main();
