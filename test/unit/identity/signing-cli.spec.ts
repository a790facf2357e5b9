import { parseDidKey } from '../../../src/identity/did-key';
import { verifyEd25519 } from '../../../src/identity/ed25519-verifier';
import { BadNonceError } from '../../../src/identity/errors/bad-nonce.error';
import { BadSigningSeedError } from '../../../src/identity/errors/bad-signing-seed.error';
import { decodeSignature } from '../../../src/identity/signature-encoding';
import { signingKeyFromSeed } from '../../../src/identity/signing-key';
import { SignUsageError } from '../../../src/tools/errors/sign-usage.error';
import { keygenCommand } from '../../../src/tools/keygen.cli';
import { signCommand } from '../../../src/tools/sign.cli';

const SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const DID = signingKeyFromSeed(SEED).did;

function verifies(signature: string, payload: string): boolean {
  return verifyEd25519(parseDidKey(DID), new Uint8Array(Buffer.from(payload)), decodeSignature(signature));
}

describe('keygen CLI', () => {
  it('prints a seed that recreates the printed did:key', () => {
    const [seedLine, didLine, rest] = keygenCommand().split('\n');
    const seed = seedLine.replace(/^seed: /, '');
    const did = didLine.replace(/^did: {2}/, '');
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(signingKeyFromSeed(seed).did).toBe(did);
    expect(rest).toBe('');
  });
});

describe('sign CLI', () => {
  it('signs room|nonce|swept text and prints the say-signed URL', () => {
    const out = signCommand([
      '--seed',
      SEED,
      '--room',
      'd-lab',
      '--nonce',
      '007',
      '--text',
      ' héllo\tworld/? ',
    ]);
    const [signature, url] = out.trimEnd().split('\n');
    expect(verifies(signature, 'd-lab|007|héllo world/?')).toBe(true);
    expect(url).toBe(
      `http://127.0.0.1:8080/r/d-lab/say-signed/${DID}/${signature}/007/h%C3%A9llo%20world%2F%3F`,
    );
  });

  it('signs ns|key|nonce|value and prints the set-signed URL on the given base', () => {
    const args = ['--seed', SEED, '--ns', 'room-owners', '--key', 'd-lab', '--nonce', '12', '--value', DID];
    const [signature, url] = signCommand([...args, '--base', 'https://chat.example/'])
      .trimEnd()
      .split('\n');
    expect(verifies(signature, `room-owners|d-lab|12|${DID}`)).toBe(true);
    expect(url).toBe(
      `https://chat.example/kv/room-owners/d-lab/set-signed/${DID}/${signature}/12/${encodeURIComponent(DID)}`,
    );
  });

  it('defaults the nonce to the millisecond clock', () => {
    const out = signCommand(['--seed', SEED, '--room', 'r', '--text', 't'], () => 1712000000000);
    expect(out).toContain('/1712000000000/t\n');
  });

  it.each([
    [['--room', 'r', '--text', 't'], SignUsageError],
    [['--seed', SEED, '--room', 'r'], SignUsageError],
    [['--seed', SEED, '--room', 'r', '--text', 't', '--ns', 'n'], SignUsageError],
    [['--seed', SEED, '--text', 't', '--room', 'r', '--nonce', '1e3'], BadNonceError],
    [['--seed', 'abc', '--room', 'r', '--text', 't'], BadSigningSeedError],
  ])('refuses %j', (argv, type) => {
    expect(() => signCommand(argv)).toThrow(type);
  });

  it('refuses unknown flags', () => {
    expect(() => signCommand(['--seed', SEED, '--bogus'])).toThrow(/Unknown option '--bogus'/);
  });
});
