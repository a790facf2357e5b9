import { readFileSync } from 'node:fs';
import { SignUsageError } from './errors/sign-usage.error';

/** The environment variable the sign tool reads its seed from (a process's environment is private to its user; its argv is not). */
export const SEED_ENV = 'CHAT_SIGN_SEED';

/** Reads a seed file; `-` is stdin. */
export type ReadSeedFile = (path: string) => string;

export const readSeedFile: ReadSeedFile = (path) => readFileSync(path === '-' ? 0 : path, 'utf8');

/**
 * The seed to sign with, from (in this order) `--seed-file <path>` (`-`: stdin), `--seed <hex>`, or
 * CHAT_SIGN_SEED. `--seed` puts the secret on the command line, where any user of the machine can read
 * it (`ps`, /proc/<pid>/cmdline); a file, stdin or the environment do not. A file may hold the seed
 * alone or keygen's whole output (`seed: <hex>` and `did: …` lines), so `npm run keygen > me.key`
 * makes a file `--seed-file me.key` reads.
 */
export function seedFrom(
  args: { readonly seed?: string; readonly seedFile?: string },
  env: Readonly<Record<string, string | undefined>>,
  read: ReadSeedFile = readSeedFile,
): string {
  if (args.seed !== undefined && args.seedFile !== undefined) {
    throw new SignUsageError('give either --seed or --seed-file, not both');
  }
  if (args.seedFile !== undefined) return seedInFile(read, args.seedFile);
  const seed = args.seed ?? env[SEED_ENV];
  if (seed === undefined || seed === '') {
    throw new SignUsageError(`give the seed: --seed-file <path> (- for stdin), ${SEED_ENV}, or --seed <hex>`);
  }
  return seed.trim();
}

function seedInFile(read: ReadSeedFile, path: string): string {
  let text: string;
  try {
    text = read(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`--seed-file ${path}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  const labelled = /^seed:\s*(\S+)\s*$/m.exec(text);
  return labelled === null ? text.trim() : labelled[1];
}
