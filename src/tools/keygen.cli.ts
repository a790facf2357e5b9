import { generateSigningKey } from '../identity/signing-key';
import { parseArgs, UsageError } from './cli-args';
import { runTool } from './cli-runner';

const USAGE = [
  'usage: npm run keygen',
  '',
  'Creates a fresh Ed25519 identity for the signed lanes and prints two labelled lines:',
  '  seed: <64 hex digits>   the private key: keep it secret, it is the whole key',
  '  did:  did:key:z6Mk...   the public identity that appears in signed URLs',
  "A shell takes them apart with: npm run -s keygen | awk '{print $2}'",
].join('\n');

export const SEED_WARNING =
  'keygen: the seed is secret: anyone who has it can sign as this did:key. Store it like a password; it is not saved anywhere.\n';

/** The two labelled output lines: `seed: <hex>` then `did:  <did:key>`. */
export function keygenCommand(): string {
  const key = generateSigningKey();
  return `seed: ${key.seedHex}\ndid:  ${key.did}\n`;
}

if (require.main === module) {
  runTool(USAGE, process.argv.slice(2), (argv) => {
    parseArgs(argv, []); // no options: anything but --help is a usage error
    if (argv.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(argv[0])}`);
    process.stderr.write(SEED_WARNING);
    process.stdout.write(keygenCommand());
  });
}
