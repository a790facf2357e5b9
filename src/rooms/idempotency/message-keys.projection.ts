import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { ChatEvent } from '../../events/chat-event';
import { contentFingerprint } from '../../write/idempotency/content-fingerprint';
import { IndexedKey, KeyIndexProjection } from '../../write/idempotency/key-index.projection';
import { parseAppendedRecord } from '../read-side/stored-record';

/** What a message's idempotency key leads back to. */
export interface MessageKeyEntry {
  /** Write time, µs (the record's ts). */
  readonly at: number;
  readonly seq: number;
  /** contentFingerprint of the stored text. */
  readonly fp: string;
}

/**
 * A message key's scope: the room and the writer (the nick as stored, or the signer's did:key), so
 * two clients that pick the same key in one room never meet unless they also write under one name,
 * and a signed writer's keys are out of everyone else's reach (docs/decisions.md). Names hold no
 * newline, so the id is unambiguous.
 */
export function messageKeyId(room: string, writer: string, key: string): string {
  return `${room}\n${writer}\n${key}`;
}

/** "The same content" of a message: its text after the single-line sweep (what is stored). */
export function messageFingerprint(sweptText: string): string {
  return contentFingerprint(sweptText);
}

/**
 * The idempotency keys of messages (issue 28), folded from the `idempotencyKey` of `message.appended`
 * events: scope → the write's seq, time and content fingerprint (KeyIndexProjection).
 */
@Injectable()
export class MessageKeysProjection extends KeyIndexProjection<MessageKeyEntry> {
  readonly name = 'message-keys';

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config);
  }

  protected keyedWrite(event: ChatEvent): IndexedKey<MessageKeyEntry> | null {
    if (event.type !== 'message.appended' || event.idempotencyKey === undefined) return null;
    const record = parseAppendedRecord(event.record);
    if (record === null) return null;
    return {
      id: messageKeyId(event.room, record.from, event.idempotencyKey),
      entry: { at: event.at, seq: event.seq, fp: messageFingerprint(record.text) },
    };
  }
}
