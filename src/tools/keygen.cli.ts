import { generateSigningKey } from '../identity/signing-key';

/**
 * `node dist/tools/keygen.cli.js`: a fresh Ed25519 identity for the signed lane. Prints the seed as
 * hex on the first line (keep it private: it is the whole key) and the did:key on the second, so a
 * shell can `read seed did`.
 */
export function keygenCommand(): string {
  const key = generateSigningKey();
  return `${key.seedHex}\n${key.did}\n`;
}

if (require.main === module) process.stdout.write(keygenCommand());
