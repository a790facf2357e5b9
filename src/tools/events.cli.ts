import { join } from 'node:path';
import { formatTimestamp } from '../common/timestamp';
import { ChatEvent } from '../events/chat-event';
import { decodeEvent, EVENT_TYPES } from '../events/event-codec';
import { SegmentedEventLog } from '../log/file/segmented-event-log';
import { LogPoint, parseArgs, parseLogPoint, reached, UsageError } from './cli-args';
import { runTool } from './cli-runner';
import { existingDataDir } from './data-dir-arg';
import { LogRecord } from '../log/event-log';
import { NatsLogOptions } from '../log/nats/nats-log.options';
import { withNatsHistory } from './nats-history';
import { toolNatsOptions } from './tool-nats-options';

const USAGE = [
  'usage: npm run events -- <data dir> [--room r] [--type t] [--since time|offset] [--until time|offset] [--from offset]',
  '       npm run events -- --nats <stream> [the same filters]',
  '',
  'Prints the logged events of a data directory as JSON lines, oldest first (read-only, no lock).',
  '  --nats s    read NATS stream s instead (CHAT_NATS_URL and credentials from the environment):',
  "              its archive below the stream's first record (CHAT_NATS_ARCHIVE), the stream above;",
  '              a missing or damaged archive chunk stops the listing, naming it (exit 1)',
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
  try {
    return await printRecords(log.read(from ?? log.firstOffset()), filter, write);
  } finally {
    await log.close();
  }
}

/** Prints a NATS stream's events, its archive's included (withNatsHistory), as printEvents does. */
export function printStreamEvents(
  options: NatsLogOptions,
  filter: EventFilter,
  from: number | undefined,
  write: (line: string) => void,
): Promise<number> {
  return withNatsHistory(options, from ?? 0, ({ records }) => printRecords(records, filter, write));
}

/** One JSON line per record that passes the filter; the number printed. */
export async function printRecords(
  records: AsyncIterable<LogRecord>,
  filter: EventFilter,
  write: (line: string) => void,
): Promise<number> {
  let printed = 0;
  for await (const record of records) {
    const event = decodeEvent(record.payload);
    if (filter.until !== undefined && reached(filter.until, record.offset, event.at)) break;
    if (!matches(filter, record.offset, event)) continue;
    write(`${JSON.stringify({ offset: record.offset, time: formatTimestamp(event.at), ...event })}\n`);
    printed++;
  }
  return printed;
}

async function main(argv: readonly string[]): Promise<void> {
  const { positionals, options } = parseArgs(argv, ['room', 'type', 'since', 'until', 'from', 'nats']);
  if (positionals.length !== (options.nats === undefined ? 1 : 0))
    throw new UsageError('give exactly one data directory, or --nats <stream> and none');
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
  const write = (line: string) => process.stdout.write(line);
  if (options.nats === undefined) await printEvents(existingDataDir(positionals[0]), filter, from, write);
  else await printStreamEvents(toolNatsOptions(options.nats), filter, from, write);
}

if (require.main === module) {
  // `npm run events -- data | head`: a closed pipe ends the listing, it is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => process.exit(error.code === 'EPIPE' ? 0 : 1));
  runTool(USAGE, process.argv.slice(2), main);
}
