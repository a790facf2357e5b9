import { parseArgs, UsageError } from './cli-args';
import { runTool } from './cli-runner';
import { salvageDataDir } from './salvage/salvage-data-dir';
import { DataDirLock } from '../storage/data-dir-lock';

const USAGE = [
  'usage: npm run salvage -- <data dir> [--dry-run]',
  '',
  'For a data directory the service refuses because its log is damaged (a start names the segment',
  'and byte). With the service stopped: keeps every valid frame of every log segment, moves each',
  'damaged region into <data dir>/salvage/<segment>.<byte>.damaged, renames later segments so offsets',
  'stay contiguous, and moves checkpoints past the damage to <data dir>/salvage/checkpoints/. Says',
  'what it did, one line per change; --dry-run says what it would do and changes nothing. Then run',
  '`npm run verify -- <data dir>` and start the service (docs/operations.md, Damaged log).',
].join('\n');

async function main(argv: readonly string[]): Promise<void> {
  const dryRun = argv.includes('--dry-run');
  const { positionals } = parseArgs(
    argv.filter((arg) => arg !== '--dry-run'),
    [],
  );
  if (positionals.length !== 1) throw new UsageError('give exactly one data directory');
  const root = positionals[0];
  // Salvage rewrites the log: the service must not run on the directory meanwhile.
  const lock = dryRun ? null : await DataDirLock.acquire(root);
  try {
    const report = await salvageDataDir(root, dryRun);
    if (report.damagedRegions === 0) {
      process.stdout.write(`salvage: nothing to do: ${report.framesKept} frames, every one valid\n`);
      return;
    }
    for (const action of report.actions) process.stdout.write(`salvage: ${action}\n`);
    process.stdout.write(
      `salvage: ${dryRun ? 'dry run, nothing changed' : 'done'}: ${report.framesKept} valid frames kept, ` +
        `${report.damagedRegions} damaged region(s) of ${report.damagedBytes} bytes ` +
        `${dryRun ? 'would be ' : ''}moved aside; then run \`npm run verify -- ${root}\`\n`,
    );
  } finally {
    lock?.release();
  }
}

if (require.main === module) runTool(USAGE, process.argv.slice(2), main);
