import { JetStreamApiError, JetStreamManager, StreamConfig, StreamInfo } from '@nats-io/jetstream';
import { NatsStreamMismatchError } from './nats-log.errors';
import { NatsLogOptions } from './nats-log.options';
import { SubjectLayout } from './subjects';

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
 * so a byte limit refuses new writes instead of deleting old ones. `allow_atomic` lets a write of
 * several records be stored whole or not at all; `allow_direct` lets `npm run nats-status` read each
 * server's own copy.
 */
function expectations(options: NatsLogOptions): Expectation[] {
  return [
    ...upgradable(options),
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

/** The settings a version-1 stream (one subject, stream-wide preconditions) is upgraded in place to. */
function upgradable(options: NatsLogOptions): Expectation[] {
  const layout = new SubjectLayout(options.stream);
  return [
    { field: 'subjects', wanted: layout.streamSubjects(), knob: 'CHAT_NATS_STREAM' },
    { field: 'allow_atomic', wanted: true, knob: 'fixed: multi-record writes are atomic' },
    { field: 'allow_direct', wanted: true, knob: 'fixed: per-server reads for npm run nats-status' },
  ];
}

/**
 * The stream metadata key recording the retention a stream was created with (CHAT_NATS_RETENTION at
 * creation, `snapshot` when unset — `keep` for streams created before purging was safe by default);
 * a stream without it (created before snapshots existed) is `keep` unless the knob says otherwise, so
 * an upgrade never starts deleting history an operator kept.
 */
export const RETENTION_METADATA = 'agent-chat-retention';

/** The retention in force for a stream: the knob when set, else the stream's metadata, else `keep`. */
export function effectiveRetention(info: StreamInfo, options: NatsLogOptions): 'keep' | 'snapshot' {
  if (options.retention) return options.retention;
  return info.config.metadata?.[RETENTION_METADATA] === 'snapshot' ? 'snapshot' : 'keep';
}

function wantedConfig(options: NatsLogOptions): Partial<StreamConfig> & { name: string } {
  const config: Record<string, unknown> = {
    name: options.stream,
    // A new stream is bounded unless asked to keep everything (issue 27). Writes to a scope whose
    // records were purged carry the stream's first sequence (docs/scaling.md, "Writing to a scope
    // whose records were purged"), so purging forks nothing.
    metadata: { [RETENTION_METADATA]: options.retention === 'keep' ? 'keep' : 'snapshot' },
  };
  for (const { field, wanted } of expectations(options)) config[field] = wanted;
  return config as Partial<StreamConfig> & { name: string };
}

/**
 * Creates the stream as the configuration wants it; `firstSeq` makes an empty stream continue after
 * a snapshot (`npm run nats-restart-stream`, docs/scaling.md "Restore after losing the stream").
 */
export function createStream(
  jsm: JetStreamManager,
  options: NatsLogOptions,
  firstSeq?: number,
): Promise<StreamInfo> {
  return jsm.streams.add({
    ...wantedConfig(options),
    ...(firstSeq === undefined ? {} : { first_seq: firstSeq }),
  });
}

function differing(info: StreamInfo, wanted: readonly Expectation[]): Expectation[] {
  const actual = info.config as unknown as Record<string, unknown>;
  return wanted.filter(
    ({ field, wanted: value }) => JSON.stringify(actual[field] ?? null) !== JSON.stringify(value ?? null),
  );
}

/** Lines naming each setting of `info` that differs from what `options` ask for. */
export function streamMismatches(info: StreamInfo, options: NatsLogOptions): string[] {
  const actual = info.config as unknown as Record<string, unknown>;
  return differing(info, expectations(options)).map(
    ({ field, wanted, knob }) =>
      `${field} is ${JSON.stringify(actual[field] ?? null)}, wanted ${JSON.stringify(wanted)} (${knob})`,
  );
}

/**
 * Whether `info` is a stream of the version-1 layout (subjects `chat.<stream>.>`, no atomic batches)
 * that is otherwise as configured: then it is upgraded in place rather than refused.
 */
function isVersionOne(info: StreamInfo, options: NatsLogOptions): boolean {
  const subjects = JSON.stringify(info.config.subjects ?? []);
  const legacy = JSON.stringify(new SubjectLayout(options.stream).legacyStreamSubjects());
  const current = JSON.stringify(new SubjectLayout(options.stream).streamSubjects());
  const rest = differing(info, expectations(options)).filter(
    ({ field }) => !upgradable(options).some((e) => e.field === field),
  );
  return rest.length === 0 && (subjects === legacy || subjects === current);
}

/**
 * Creates the stream if it is missing, else verifies it; a mismatch is a start-up error. A stream of
 * the version-1 layout is upgraded in place (docs/scaling.md, "Upgrading a stream"): it captures the
 * new subjects only — its records on `chat.<stream>.log` stay and are read as before, while nodes of
 * the older version can no longer write (their publishes find no stream) — and takes atomic batches.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  options: NatsLogOptions,
): Promise<{ readonly info: StreamInfo; readonly upgraded: boolean }> {
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(options.stream);
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.code !== STREAM_NOT_FOUND) throw error;
    return { info: await createStream(jsm, options), upgraded: false };
  }
  if (streamMismatches(info, options).length > 0 && isVersionOne(info, options)) {
    const config = { ...info.config };
    for (const { field, wanted } of upgradable(options)) (config as Record<string, unknown>)[field] = wanted;
    return { info: await jsm.streams.update(options.stream, config), upgraded: true };
  }
  const mismatches = streamMismatches(info, options);
  if (mismatches.length > 0) throw new NatsStreamMismatchError(options.stream, mismatches);
  return { info, upgraded: false };
}
