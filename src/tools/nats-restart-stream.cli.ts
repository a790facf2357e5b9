import { parseArgs, UsageError } from './cli-args';
import { runTool } from './cli-runner';
import { restartStream } from './stream-restart';
import { toolNatsOptions } from './tool-nats-options';

const USAGE = [
  'usage: npm run nats-restart-stream -- [--snapshot <offset>]',
  '',
  "After the service's stream was lost (CHAT_NATS_STREAM, with CHAT_NATS_URL and credentials from the",
  'environment): creates it again, empty, its first record right after the newest shared snapshot (or',
  'the one at <offset>), so nodes started on empty data directories restore that snapshot and write on.',
  'Refuses when the stream exists. docs/scaling.md, "Restore after losing the stream", says the rest.',
].join('\n');

async function main(argv: readonly string[]): Promise<void> {
  const { positionals, options } = parseArgs(argv, ['snapshot']);
  if (positionals.length > 0) throw new UsageError('no positional arguments: the stream is CHAT_NATS_STREAM');
  if (options.snapshot !== undefined && !/^\d+$/.test(options.snapshot))
    throw new UsageError('--snapshot takes a snapshot offset');
  const nats = toolNatsOptions();
  const snapshot = options.snapshot === undefined ? undefined : Number(options.snapshot);
  const { offset, snapshot: name } = await restartStream(nats, snapshot);
  process.stdout.write(
    `created stream ${nats.stream}, empty, starting at offset ${offset} after snapshot ${name}: ` +
      'start the nodes on empty data directories\n',
  );
}

if (require.main === module) runTool(USAGE, process.argv.slice(2), main);
