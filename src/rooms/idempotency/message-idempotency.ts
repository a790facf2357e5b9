import { Injectable } from '@nestjs/common';
import { formatTimestamp } from '../../common/timestamp';
import { sweep } from '../../common/sweep';
import { ProjectionRunner } from '../../projections/projection-runner';
import { IdempotentReplayGoneError } from '../../write/idempotency/idempotency-errors';
import { idempotentWrite } from '../../write/idempotency/idempotent-write';
import { RoomHistory } from '../room-history';
import { RoomWriteModel } from '../room-write.model';
import { AppendedMessage } from '../room-write.service';
import { MessageKeyEntry, messageFingerprint, messageKeyId } from './message-keys.projection';

/** A message write as its idempotency step sees it. */
export interface KeyedMessage {
  readonly key: string | undefined;
  readonly room: string;
  /** The writer the key is scoped to: the nick (unsigned) or the did (signed); null when it cannot have written (a non-string `from`). */
  readonly writer: string | null;
  /** The text as sent: compared after the sweep, as stored. */
  readonly rawText: string;
}

/**
 * The first step of every message lane (issue 28): a key that names an earlier write of the same
 * message answers with that write (its seq and stored record, the room as it is now), and nothing is
 * appended — before the room gate, the duplicate filter and the stale-nonce rule, which would all
 * refuse a retry of a write that landed. See idempotentWrite for the rest.
 */
@Injectable()
export class MessageIdempotency {
  constructor(
    private readonly model: RoomWriteModel,
    private readonly history: RoomHistory,
    private readonly runner: ProjectionRunner,
  ) {}

  run(message: KeyedMessage, write: () => Promise<AppendedMessage>): Promise<AppendedMessage> {
    const { key, room, writer } = message;
    if (key === undefined) return write();
    const id = writer === null ? null : messageKeyId(room, writer, key);
    return idempotentWrite<MessageKeyEntry, AppendedMessage>({
      key,
      prior: () => (id === null ? null : this.model.priorWrite(id)),
      fingerprint: messageFingerprint(sweep(message.rawText)),
      describe: (entry) => describe(room, entry),
      replay: (entry) => {
        const record = this.history.record(room, entry.seq);
        if (record === null) throw new IdempotentReplayGoneError(key, describe(room, entry));
        return { room, seq: entry.seq, record: record.line, replayed: true };
      },
      write,
      progress: () => this.runner.whenApplied(this.runner.nextOffset),
    });
  }
}

function describe(room: string, entry: MessageKeyEntry): string {
  return `/r/${room} seq ${entry.seq} (${formatTimestamp(entry.at)})`;
}
