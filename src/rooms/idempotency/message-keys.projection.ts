import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { ChatEvent } from '../../events/chat-event';
import { Projection } from '../../projections/projection';
import { contentFingerprint } from '../../write/idempotency/content-fingerprint';
import { KeyWindow } from '../../write/idempotency/key-window';
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
 * events: scope → the write's seq, time and content fingerprint, within CHAT_IDEMPOTENCY_WINDOW_SECONDS
 * and CHAT_IDEMPOTENCY_MAX_KEYS (KeyWindow). Checkpointed and rebuilt by replay like every read model,
 * so a retry is recognised on any node and after a restart. Events without a key cost one check.
 */
@Injectable()
export class MessageKeysProjection implements Projection {
  readonly name = 'message-keys';
  private readonly keys: KeyWindow<MessageKeyEntry>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.keys = new KeyWindow(config.idempotencyWindowSeconds, config.idempotencyMaxKeys);
  }

  apply(event: ChatEvent): void {
    if (event.type !== 'message.appended' || event.idempotencyKey === undefined) return;
    const record = parseAppendedRecord(event.record);
    if (record === null) return;
    const id = messageKeyId(event.room, record.from, event.idempotencyKey);
    this.keys.put(id, { at: event.at, seq: event.seq, fp: messageFingerprint(record.text) });
  }

  get(id: string, nowMicros: number): MessageKeyEntry | undefined {
    return this.keys.get(id, nowMicros);
  }

  get size(): number {
    return this.keys.size;
  }

  snapshot(): { keys: Array<[string, MessageKeyEntry]> } {
    return { keys: this.keys.toRows() };
  }

  restore(state: unknown): void {
    this.keys.restore((state as { keys: Array<[string, MessageKeyEntry]> }).keys);
  }
}
