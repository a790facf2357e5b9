import { parseArgs, UsageError } from './cli-args';
import { runTool } from './cli-runner';
import { restoreSnapshot, takeSnapshot } from './snapshot';

const USAGE = [
  'usage: npm run snapshot -- <data dir> --out <dir>',
  '       npm run snapshot -- <fresh data dir> --restore <file.snap>',
  '',
  "Writes a snapshot (checkpoint + ring files, SHA-256 sealed) of a data directory's newest intact",
  'checkpoint into <dir>, or restores one into an empty data directory: the service started there',
  "begins at the snapshot's offset (file backend; the nats backend shares snapshots by itself).",
].join('\n');

async function main(argv: readonly string[]): Promise<void> {
  const { positionals, options } = parseArgs(argv, ['out', 'restore']);
  if (positionals.length !== 1) throw new UsageError('give exactly one data directory');
  if ((options.out === undefined) === (options.restore === undefined)) {
    throw new UsageError('give either --out <dir> or --restore <file>');
  }
  if (options.out !== undefined) {
    const { path, offset, bytes } = await takeSnapshot(positionals[0], options.out);
    process.stdout.write(`snapshot of offset ${offset} written to ${path} (${bytes} bytes)\n`);
    return;
  }
  const { offset } = await restoreSnapshot(options.restore, positionals[0]);
  process.stdout.write(
    `restored ${options.restore} into ${positionals[0]}: the log starts at offset ${offset}\n`,
  );
}

if (require.main === module) runTool(USAGE, process.argv.slice(2), main);
