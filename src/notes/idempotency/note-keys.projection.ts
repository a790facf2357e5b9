import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { ChatEvent } from '../../events/chat-event';
import { Projection } from '../../projections/projection';
import { contentFingerprint } from '../../write/idempotency/content-fingerprint';
import { KeyWindow } from '../../write/idempotency/key-window';

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
 * `note.written` event (never the server's own: a nonce burn or an allow-list reset carries none), the
 * same way MessageKeysProjection keeps those of messages.
 */
@Injectable()
export class NoteKeysProjection implements Projection {
  readonly name = 'note-keys';
  private readonly keys: KeyWindow<NoteKeyEntry>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.keys = new KeyWindow(config.idempotencyWindowSeconds, config.idempotencyMaxKeys);
  }

  apply(event: ChatEvent): void {
    if (event.type !== 'note.written' || event.idempotencyKey === undefined) return;
    const id = noteKeyId(event.ns, event.key, event.signer, event.idempotencyKey);
    const entry: NoteKeyEntry = {
      at: event.at,
      bytes: Buffer.byteLength(event.value, 'utf8'),
      fp: noteFingerprint(event.value),
      ...(event.signer === undefined ? {} : { signer: event.signer }),
    };
    this.keys.put(id, entry);
  }

  get(id: string, nowMicros: number): NoteKeyEntry | undefined {
    return this.keys.get(id, nowMicros);
  }

  get size(): number {
    return this.keys.size;
  }

  snapshot(): { keys: Array<[string, NoteKeyEntry]> } {
    return { keys: this.keys.toRows() };
  }

  restore(state: unknown): void {
    this.keys.restore((state as { keys: Array<[string, NoteKeyEntry]> }).keys);
  }
}
