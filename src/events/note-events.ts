/**
 * Note events (contract §10). A note is the last `note.written` for its (ns, key) that no later
 * `note.reclaimed` voided. The server's own writes are ordinary `note.written` events too: the
 * ownership-nonce burn (`room-nonce/<room>` = the nonce as sent) and the allow-list reset to `none`
 * on a first claim, appended in the same batch as the write they belong to (or alone, for a burn
 * whose write then failed: a burned nonce is never refunded).
 */

/** A note was created or overwritten. `value` is the swept value, exactly as stored. */
export interface NoteWritten {
  readonly type: 'note.written';
  readonly ns: string;
  readonly key: string;
  readonly value: string;
  /** Write time, µs since the epoch (the ack's `ts` and the start of the 7-day idle window). */
  readonly at: number;
  /** Signed ownership writes: the did:key that signed it (audit only; the value says who owns). */
  readonly signer?: string;
  /** The client's Idempotency-Key, when the write carried one (issue 28; see MessageAppended). */
  readonly idempotencyKey?: string;
}

/** An idle note was deleted by the reaper. */
export interface NoteReclaimed {
  readonly type: 'note.reclaimed';
  readonly ns: string;
  readonly key: string;
  readonly at: number;
  /** The write time the reaper saw: if the note was written since, the reclaim is void. */
  readonly expectedLastWriteAt: number;
}

export type NoteEvent = NoteWritten | NoteReclaimed;
