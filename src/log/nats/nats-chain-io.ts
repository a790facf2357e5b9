import { JetStreamManager } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { LogUnavailableError } from '../log.errors';
import { ChainIo } from './append-chains';
import { StreamForkedError } from './nats-log.errors';
import { NatsLogOptions } from './nats-log.options';
import { OutgoingMessage, publishBatch } from './publish-batch';
import { publishFailure, wrongLastSequence } from './publish-failure';
import { StreamGuard } from './stream-guard';
import { SubjectLayout } from './subjects';

export interface ChainIoParts {
  readonly nc: NatsConnection;
  readonly jsm: JetStreamManager;
  readonly options: NatsLogOptions;
  readonly layout: SubjectLayout;
  readonly guard: StreamGuard;
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
 * batch is a fork too; any other is a conflict or an unavailable log (publishFailure).
 */
export function natsChainIo(parts: ChainIoParts): ChainIo {
  const { nc, jsm, options, layout, guard } = parts;
  return {
    send: async (messages: readonly OutgoingMessage[]) => {
      const last = await publishBatch(nc, messages, options.timeoutMs);
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
    blocked: parts.blocked,
    failure: (error: unknown, expected: ReadonlyMap<string, number | undefined>) => {
      if (error instanceof StreamForkedError) return error;
      const last = wrongLastSequence(error);
      const [scope, seq] = expected.size === 1 ? [...expected][0] : [];
      if (last !== undefined && scope !== undefined && seq !== undefined && last < seq) {
        guard.regressed(scope, seq, last);
        return guard.fork!;
      }
      return publishFailure(error, parts.context());
    },
  };
}
