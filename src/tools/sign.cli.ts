import { parseArgs } from 'node:util';
import { sweep } from '../common/sweep';
import { parseNonce } from '../identity/nonce';
import { messageSigningPayload, noteSigningPayload } from '../identity/signing-payload';
import { signingKeyFromSeed, SigningKey } from '../identity/signing-key';
import { runTool } from './cli-runner';
import { SignUsageError } from './errors/sign-usage.error';
import { ReadSeedFile, readSeedFile, SEED_ENV, seedFrom } from './seed-source';

/**
 * `node dist/tools/sign.cli.js`: signs one write and prints the signature, then the GET URL that
 * carries it. The text or value is swept first (contract §5) because the server verifies the swept
 * form; the nonce defaults to the current millisecond clock, which counts up as the lane requires.
 */
export const SIGN_USAGE = [
  'usage: npm run sign -- --seed-file <path> --room <room> [--nonce <n>] --text <text> [--base <url>]',
  '       npm run sign -- --seed-file <path> --ns <ns> --key <key> [--nonce <n>] --value <value> [--base <url>]',
  '',
  'Signs one message (say-signed) or note write (set-signed) and prints the signature, then the URL.',
  '  --seed-file  a file holding the seed from `npm run keygen` (its whole output will do); - reads stdin',
  `  ${SEED_ENV}  the seed in the environment, when no --seed-file is given`,
  '  --seed    the 64-hex-digit seed itself: visible to every user of the machine in `ps`; prefer the two above',
  '  --nonce   defaults to the current millisecond clock',
  '  --base    the service URL; default CHAT_PUBLIC_URL, else http://HOST:PORT from the environment',
  '            the service reads (127.0.0.1 and 8080 when unset)',
].join('\n');

/** Where the service listens, as the environment the service reads describes it. */
export function defaultBase(env: Readonly<Record<string, string | undefined>>): string {
  if (env.CHAT_PUBLIC_URL) return env.CHAT_PUBLIC_URL;
  const bound = env.HOST || '127.0.0.1';
  // A wildcard bind is reached through loopback; an IPv6 literal needs brackets in a URL.
  const host =
    bound === '0.0.0.0' ? '127.0.0.1' : bound === '::' ? '[::1]' : bound.includes(':') ? `[${bound}]` : bound;
  return `http://${host}:${env.PORT || '8080'}`;
}

const OPTIONS = {
  seed: { type: 'string' },
  'seed-file': { type: 'string' },
  room: { type: 'string' },
  text: { type: 'string' },
  ns: { type: 'string' },
  key: { type: 'string' },
  value: { type: 'string' },
  nonce: { type: 'string' },
  base: { type: 'string' },
} as const;

type SignArgs = Partial<Record<keyof typeof OPTIONS, string>>;

/** The two output lines (signature, URL) for command-line arguments without the node/script pair. */
export function signCommand(
  argv: readonly string[],
  now: () => number = Date.now,
  env: Readonly<Record<string, string | undefined>> = {},
  read: ReadSeedFile = readSeedFile,
): string {
  const { values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true });
  const args: SignArgs = values;
  const key = signingKeyFromSeed(seedFrom({ seed: args.seed, seedFile: args['seed-file'] }, env, read));
  const nonce = parseNonce(args.nonce ?? String(now()));
  const base = (args.base ?? defaultBase(env)).replace(/\/+$/, '');
  const { signature, path } = isNoteWrite(args) ? signNote(key, args, nonce) : signMessage(key, args, nonce);
  return `${signature}\n${base}${path}\n`;
}

function isNoteWrite(args: SignArgs): boolean {
  const note = args.ns !== undefined || args.key !== undefined || args.value !== undefined;
  const message = args.room !== undefined || args.text !== undefined;
  if (note === message) throw new SignUsageError('give either --room/--text or --ns/--key/--value');
  return note;
}

function signMessage(key: SigningKey, args: SignArgs, nonce: string): { signature: string; path: string } {
  const room = required(args.room, '--room');
  const text = sweep(required(args.text, '--text'));
  const signature = key.sign(messageSigningPayload(room, nonce, text));
  return {
    signature,
    path: `/r/${encodeURIComponent(room)}/say-signed/${key.did}/${signature}/${nonce}/${encodeURIComponent(text)}`,
  };
}

function signNote(key: SigningKey, args: SignArgs, nonce: string): { signature: string; path: string } {
  const ns = required(args.ns, '--ns');
  const noteKey = required(args.key, '--key');
  const value = sweep(required(args.value, '--value'));
  const signature = key.sign(noteSigningPayload(ns, noteKey, nonce, value));
  const segments = [
    encodeURIComponent(ns),
    encodeURIComponent(noteKey),
    'set-signed',
    key.did,
    signature,
    nonce,
  ];
  return { signature, path: `/kv/${segments.join('/')}/${encodeURIComponent(value)}` };
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined) throw new SignUsageError(`${flag} is required`);
  return value;
}

if (require.main === module) {
  runTool(SIGN_USAGE, process.argv.slice(2), (argv) => {
    // eslint-disable-next-line no-restricted-properties -- the service's PORT/HOST, and CHAT_SIGN_SEED
    process.stdout.write(signCommand(argv, Date.now, process.env));
  });
}
