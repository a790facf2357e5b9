import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { ChatEvent } from '../../events/chat-event';
import { contentFingerprint } from '../../write/idempotency/content-fingerprint';
import { IndexedKey, KeyIndexProjection } from '../../write/idempotency/key-index.projection';

/** What a note write's idempotency key leads back to: everything its acknowledgement says. */
export interface NoteKeyEntry {
  /** Write time, µs (the ack's ts). */
  readonly at: number;
  /** UTF-8 bytes of the stored value (the ack's `<n>B`). */
  readonly bytes: number;
  /** contentFingerprint of the stored value. */
  readonly fp: string;
  /** The did:key of a signed ownership write. */
  readonly signer?: string;
}

/**
 * A note key's scope: the note (namespace and key) and, for a signed write, its signer, so a signed
 * writer's keys are out of everyone else's reach (docs/decisions.md). Names hold no newline.
 */
export function noteKeyId(
  ns: string,
  key: string,
  signer: string | undefined,
  idempotencyKey: string,
): string {
  return `${ns}\n${key}\n${signer ?? ''}\n${idempotencyKey}`;
}

/** "The same content" of a note write: its value after the sweep (what is stored). */
export function noteFingerprint(sweptValue: string): string {
  return contentFingerprint(sweptValue);
}

/**
 * The idempotency keys of note writes (issue 28), folded from the `idempotencyKey` of the client's
 * `note.written` event (never the server's own: a nonce burn or an allow-list reset carries none), as
 * MessageKeysProjection keeps those of messages (KeyIndexProjection).
 */
@Injectable()
export class NoteKeysProjection extends KeyIndexProjection<NoteKeyEntry> {
  readonly name = 'note-keys';

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config);
  }

  protected keyedWrite(event: ChatEvent): IndexedKey<NoteKeyEntry> | null {
    if (event.type !== 'note.written' || event.idempotencyKey === undefined) return null;
    return {
      id: noteKeyId(event.ns, event.key, event.signer, event.idempotencyKey),
      entry: {
        at: event.at,
        bytes: Buffer.byteLength(event.value, 'utf8'),
        fp: noteFingerprint(event.value),
        ...(event.signer === undefined ? {} : { signer: event.signer }),
      },
    };
  }
}
