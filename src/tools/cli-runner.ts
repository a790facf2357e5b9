import { UsageError } from './cli-args';

/** Whether the arguments ask for help (`--help` or `-h` before a `--` that ends the options). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  return options.includes('--help') || options.includes('-h');
}

/** A usage mistake: ours, or one node's own parseArgs reports (unknown option, missing value). */
function isUsageError(error: unknown): boolean {
  if (error instanceof UsageError) return true;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/**
 * The one way every command-line tool starts, so they all behave alike: `--help`/`-h` prints the
 * usage on stdout and exits 0; a usage mistake prints the reason and the usage on stderr and exits 2;
 * any other failure prints its message on stderr and exits 1.
 */
export function runTool(
  usage: string,
  argv: readonly string[],
  main: (argv: readonly string[]) => Promise<void> | void,
): void {
  if (wantsHelp(argv)) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  Promise.resolve()
    .then(() => main(argv))
    .catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (isUsageError(error)) {
        process.stderr.write(`${message}\n${usage}\n`);
        process.exit(2);
      }
      process.stderr.write(`${message}\n`);
      process.exit(1);
    });
}
