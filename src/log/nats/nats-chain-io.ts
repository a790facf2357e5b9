import { JetStreamManager } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { LogConflictError, LogUnavailableError } from '../log.errors';
import { AckRequests } from './ack-requests';
import { ChainIo } from './append-chains';
import { StreamForkedError } from './nats-log.errors';
import { NatsLogOptions } from './nats-log.options';
import { OutgoingMessage, publishBatch } from './publish-batch';
import { publishFailure, wrongLastSequence } from './publish-failure';
import { StreamFloor } from './stream-floor';
import { StreamGuard } from './stream-guard';
import { SubjectLayout } from './subjects';

export interface ChainIoParts {
  readonly nc: NatsConnection;
  readonly jsm: JetStreamManager;
  readonly options: NatsLogOptions;
  readonly layout: SubjectLayout;
  readonly guard: StreamGuard;
  readonly floor: StreamFloor;
  readonly blocked: () => Error | undefined;
  /** What a failure is read against: the lost connection, if any, and the committed head. */
  readonly context: () => { readonly lost: LogUnavailableError | undefined; readonly committedNext: number };
  /** NATS stored a batch of this node's ending at `seq` (the tail has yet to deliver it). */
  readonly acknowledged: (seq: number) => void;
}

/**
 * How AppendChains reaches the stream: publishes (an acknowledgement at a sequence this node already
 * applied as another record is a fork, StreamGuard), looks up a scope's last record on the stream
 * leader, and reads a failure — a precondition refused below what this node knows for a one-scope
 * batch is a fork too, unless the scope's records were purged meanwhile (then it is decided again,
 * against "no record"); any other is a conflict or an unavailable log (publishFailure).
 */
export function natsChainIo(parts: ChainIoParts): ChainIo {
  const { nc, jsm, options, layout, guard } = parts;
  const acks = new AckRequests(nc, options.timeoutMs);
  const refreshFloor = async () => parts.floor.saw((await jsm.streams.info(options.stream)).state.first_seq);
  const failure = (error: unknown, expected: ReadonlyMap<string, number | undefined>): Error => {
    if (error instanceof StreamForkedError) return error;
    const last = wrongLastSequence(error);
    const [scope, seq] = expected.size === 1 ? [...expected][0] : [];
    if (last !== undefined && scope !== undefined && seq !== undefined && last < seq) {
      guard.regressed(scope, seq, last);
      return guard.fork!;
    }
    return publishFailure(error, parts.context());
  };
  return {
    send: async (messages: readonly OutgoingMessage[]) => {
      const last = await publishBatch(nc, acks, messages);
      guard.acknowledged(
        last - messages.length + 1,
        messages.map((message) => message.payload),
      );
      if (guard.fork) throw guard.fork;
      parts.acknowledged(last);
      return last;
    },
    lookup: async (scope: string) =>
      (await jsm.streams.getMessage(options.stream, { last_by_subj: layout.subject(scope) }))?.seq ?? 0,
    floor: () => parts.floor.known,
    refreshFloor,
    blocked: parts.blocked,
    failure: (error: unknown, expected: ReadonlyMap<string, number | undefined>) => {
      const named = [...expected.values()].filter((seq): seq is number => seq !== undefined && seq > 0);
      if (wrongLastSequence(error) !== 0 || named.length === 0) return failure(error, expected);
      return purgedOrFailure(error, expected, named);
    },
  };

  /**
   * NATS found no record where the batch named one: purged since this node last read the stream's
   * first sequence (then decide again: the retry goes with "no record" and the new floor), or gone
   * from a rewound stream (a fork, as any regression). Which one, the stream's first sequence says.
   */
  async function purgedOrFailure(
    error: unknown,
    expected: ReadonlyMap<string, number | undefined>,
    named: readonly number[],
  ): Promise<Error> {
    let floor: number;
    try {
      floor = await refreshFloor();
    } catch (cause) {
      return new LogUnavailableError(
        `NATS found no record the write named, and the stream's first sequence cannot be read: ${(cause as Error).message}`,
      );
    }
    const purged = named.find((seq) => seq < floor);
    if (purged === undefined) return failure(error, expected);
    return new LogConflictError(-1, `its last record ${purged} was purged (the stream starts at ${floor})`);
  }
}
