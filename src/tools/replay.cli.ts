import { parseArgs, parseLogPoint, UsageError } from './cli-args';
import { replay } from './replay';

const USAGE = 'usage: npm run replay -- <data dir> <new dir> [--until <offset or ISO time>]';

/** `npm run replay -- <data dir> <new dir> [--until X]`: see docs/operations.md (Replay). */
async function main(argv: readonly string[]): Promise<void> {
  const { positionals, options } = parseArgs(argv, ['until']);
  if (positionals.length !== 2) throw new UsageError(USAGE);
  const until = options.until === undefined ? undefined : parseLogPoint(options.until, 'until');
  const report = await replay({ source: positionals[0], target: positionals[1], until });
  process.stdout.write(
    `rebuilt ${positionals[1]} from ${report.base} at offset ${report.fromOffset}: ` +
      `${report.events} events applied, log head ${report.untilOffset}\n`,
  );
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
}
