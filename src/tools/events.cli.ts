import { join } from 'node:path';
import { formatTimestamp } from '../common/timestamp';
import { ChatEvent } from '../events/chat-event';
import { decodeEvent, EVENT_TYPES } from '../events/event-codec';
import { SegmentedEventLog } from '../log/file/segmented-event-log';
import { LogPoint, parseArgs, parseLogPoint, reached, UsageError } from './cli-args';
import { runTool } from './cli-runner';
import { existingDataDir } from './data-dir-arg';

const USAGE = [
  'usage: npm run events -- <data dir> [--room r] [--type t] [--since time|offset] [--until time|offset] [--from offset]',
  '',
  'Prints the logged events of a data directory as JSON lines, oldest first (read-only, no lock).',
  `  --type t    one of ${[...EVENT_TYPES].join(', ')}`,
  '  --room r    only events of room r',
  '  --since, --until   a log offset or an ISO time; --from starts reading at an offset',
].join('\n');

export interface EventFilter {
  readonly room?: string;
  readonly type?: string;
  readonly since?: LogPoint;
  readonly until?: LogPoint;
}

function matches(filter: EventFilter, offset: number, event: ChatEvent): boolean {
  if (filter.until !== undefined && reached(filter.until, offset, event.at)) return false;
  if (filter.since !== undefined && !reached(filter.since, offset, event.at)) return false;
  if (filter.type !== undefined && event.type !== filter.type) return false;
  return filter.room === undefined || ('room' in event && event.room === filter.room);
}

/** Prints the logged events of a data directory, one JSON line each, oldest first (audit, debugging). */
export async function printEvents(
  root: string,
  filter: EventFilter,
  from: number | undefined,
  write: (line: string) => void,
): Promise<number> {
  const log = new SegmentedEventLog({
    dir: join(root, 'log'),
    readOnly: true,
    logger: { log: () => undefined, warn: () => undefined },
  });
  await log.open();
  let printed = 0;
  try {
    for await (const record of log.read(from ?? log.firstOffset())) {
      const event = decodeEvent(record.payload);
      if (filter.until !== undefined && reached(filter.until, record.offset, event.at)) break;
      if (!matches(filter, record.offset, event)) continue;
      write(`${JSON.stringify({ offset: record.offset, time: formatTimestamp(event.at), ...event })}\n`);
      printed++;
    }
  } finally {
    await log.close();
  }
  return printed;
}

async function main(argv: readonly string[]): Promise<void> {
  const { positionals, options } = parseArgs(argv, ['room', 'type', 'since', 'until', 'from']);
  if (positionals.length !== 1) throw new UsageError('give exactly one data directory');
  if (options.type !== undefined && !EVENT_TYPES.has(options.type))
    throw new UsageError(`--type ${options.type} matches no event type (${[...EVENT_TYPES].join(', ')})`);
  const filter: EventFilter = {
    room: options.room,
    type: options.type,
    since: options.since === undefined ? undefined : parseLogPoint(options.since, 'since'),
    until: options.until === undefined ? undefined : parseLogPoint(options.until, 'until'),
  };
  if (options.from !== undefined && !/^\d+$/.test(options.from))
    throw new UsageError('--from takes a log offset');
  const from = options.from === undefined ? undefined : Number(options.from);
  await printEvents(existingDataDir(positionals[0]), filter, from, (line) => process.stdout.write(line));
}

if (require.main === module) {
  // `npm run events -- data | head`: a closed pipe ends the listing, it is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => process.exit(error.code === 'EPIPE' ? 0 : 1));
  runTool(USAGE, process.argv.slice(2), main);
}
