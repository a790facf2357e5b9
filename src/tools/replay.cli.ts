import { parseArgs, parseLogPoint, UsageError } from './cli-args';
import { runTool } from './cli-runner';
import { existingDataDir } from './data-dir-arg';
import { replay } from './replay';

const USAGE = [
  'usage: npm run replay -- <data dir> <new dir> [--until <offset or ISO time>]',
  '',
  'Rebuilds every read model of <data dir> into <new dir> by replaying its log, optionally only up to',
  'an offset or a time (see docs/operations.md, Replay). <new dir> is locked while it is written.',
].join('\n');

/** `npm run replay -- <data dir> <new dir> [--until X]`: see docs/operations.md (Replay). */
async function main(argv: readonly string[]): Promise<void> {
  const { positionals, options } = parseArgs(argv, ['until']);
  if (positionals.length !== 2) throw new UsageError('give the data directory and the new directory');
  const until = options.until === undefined ? undefined : parseLogPoint(options.until, 'until');
  const report = await replay({ source: existingDataDir(positionals[0]), target: positionals[1], until });
  process.stdout.write(
    `rebuilt ${positionals[1]} from ${report.base} at offset ${report.fromOffset}: ` +
      `${report.events} events applied, log head ${report.untilOffset}\n`,
  );
}

if (require.main === module) {
  runTool(USAGE, process.argv.slice(2), main);
}
