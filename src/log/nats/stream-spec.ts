import { JetStreamApiError, JetStreamManager, StreamConfig, StreamInfo } from '@nats-io/jetstream';
import { NatsStreamMismatchError } from './nats-log.errors';
import { NatsLogOptions, streamSubjects } from './nats-log.options';

const NANOS_PER_SECOND = 1_000_000_000;
const STREAM_NOT_FOUND = 10059;

/** One stream setting the service depends on: the wanted value, and the knob an operator changes. */
interface Expectation {
  readonly field: keyof StreamConfig;
  readonly wanted: unknown;
  readonly knob: string;
}

/**
 * What the log needs from the stream. History is never dropped by NATS (no age or count limit,
 * `discard: new`): a node starting from an empty CHAT_ROOT replays the stream from its first record,
 * so a byte limit refuses new writes instead of deleting old ones.
 */
function expectations(options: NatsLogOptions): Expectation[] {
  return [
    { field: 'subjects', wanted: streamSubjects(options.stream), knob: 'CHAT_NATS_STREAM' },
    { field: 'num_replicas', wanted: options.replicas, knob: 'CHAT_NATS_REPLICAS' },
    {
      field: 'duplicate_window',
      wanted: options.duplicateWindowSeconds * NANOS_PER_SECOND,
      knob: 'CHAT_NATS_DUPLICATE_WINDOW_SECONDS (in ns)',
    },
    { field: 'max_bytes', wanted: options.maxBytes, knob: 'CHAT_NATS_MAX_BYTES' },
    { field: 'max_msgs', wanted: -1, knob: 'fixed: history is never dropped' },
    { field: 'max_age', wanted: 0, knob: 'fixed: history is never dropped' },
    { field: 'max_msgs_per_subject', wanted: -1, knob: 'fixed: history is never dropped' },
    { field: 'discard', wanted: 'new', knob: 'fixed: a full stream refuses writes' },
    { field: 'retention', wanted: 'limits', knob: 'fixed: records are kept after reading' },
    { field: 'storage', wanted: 'file', knob: 'fixed: records are kept on disk' },
    { field: 'deny_delete', wanted: true, knob: 'fixed: offsets stay contiguous' },
  ];
}

function wantedConfig(options: NatsLogOptions): Partial<StreamConfig> & { name: string } {
  const config: Record<string, unknown> = { name: options.stream };
  for (const { field, wanted } of expectations(options)) config[field] = wanted;
  return config as Partial<StreamConfig> & { name: string };
}

/** Lines naming each setting of `info` that differs from what `options` ask for. */
export function streamMismatches(info: StreamInfo, options: NatsLogOptions): string[] {
  const actual = info.config as unknown as Record<string, unknown>;
  return expectations(options)
    .filter(({ field, wanted }) => JSON.stringify(actual[field] ?? null) !== JSON.stringify(wanted))
    .map(
      ({ field, wanted, knob }) =>
        `${field} is ${JSON.stringify(actual[field] ?? null)}, wanted ${JSON.stringify(wanted)} (${knob})`,
    );
}

/** Creates the stream if it is missing, else verifies it; a mismatch is a start-up error. */
export async function ensureStream(jsm: JetStreamManager, options: NatsLogOptions): Promise<StreamInfo> {
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(options.stream);
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.code !== STREAM_NOT_FOUND) throw error;
    return jsm.streams.add(wantedConfig(options));
  }
  const mismatches = streamMismatches(info, options);
  if (mismatches.length > 0) throw new NatsStreamMismatchError(options.stream, mismatches);
  return info;
}
