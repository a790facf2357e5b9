import { loadConfig } from '../config/load-config';
import { natsLogOptionsFrom } from '../log/nats/nats-log.config';
import { parseArgs, UsageError } from './cli-args';
import { runTool } from './cli-runner';
import { natsStatus, StreamStatus } from './nats-status';

const USAGE = [
  'usage: npm run nats-status -- [--monitor http://host:8222,http://host2:8222,...]',
  '',
  "Shows what each NATS server holds for the service's stream, read with the service's own",
  'CHAT_NATS_URL, CHAT_NATS_STREAM and credentials: per server its version, whether it leads or',
  'replicates the stream, how far behind the leader reports it, its own first and last sequence',
  '(from its monitoring port, given with --monitor) and the hash of the record at that sequence read',
  'through that server. Servers with different hashes at one sequence hold different histories;',
  'docs/scaling.md, "Recovering from a rewound stream", says what to do. Exit 0; 1 when the stream',
  'cannot be read at all.',
].join('\n');

const dash = (value: unknown): string => (value === undefined || Number.isNaN(value) ? '—' : String(value));

export function formatStatus(status: StreamStatus): string[] {
  const lines = [
    status.problem
      ? `stream ${status.stream}: ${status.problem}`
      : `stream ${status.stream}: ${dash(status.replicas)} replica(s), leader ${dash(status.leader)}, ` +
        `first ${dash(status.firstSeq)}, last ${dash(status.lastSeq)}`,
  ];
  for (const s of status.servers) {
    if (s.problem) {
      lines.push(`  ${s.url}: ${s.problem}`);
      continue;
    }
    const replica =
      s.role === 'replica'
        ? `, current ${s.current ? 'yes' : 'no'}, lag ${dash(s.lag)}${s.offline ? ', offline' : ''}`
        : '';
    const record = s.record
      ? `record ${s.record.seq} ${s.record.hash} (${s.record.subject})`
      : 'no record read';
    lines.push(
      `  ${s.name} ${s.url} nats-server ${s.version}: ${s.role}${replica}; ` +
        `holds ${dash(s.firstSeq)}..${dash(s.lastSeq)}; ${record}`,
    );
  }
  return lines;
}

async function main(argv: readonly string[]): Promise<void> {
  const { positionals, options } = parseArgs(argv, ['monitor']);
  if (positionals.length > 0)
    throw new UsageError('no positional arguments: the servers come from CHAT_NATS_URL');
  // eslint-disable-next-line no-restricted-properties -- the tool reads the service's own CHAT_NATS_* knobs
  const config = loadConfig(process.env);
  const monitors = (options.monitor ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  const status = await natsStatus(natsLogOptionsFrom(config, undefined), monitors);
  process.stdout.write(`${formatStatus(status).join('\n')}\n`);
  if (status.problem) process.exitCode = 1;
}

if (require.main === module) runTool(USAGE, process.argv.slice(2), main);
