import { assertName } from '../common/names';
import { NoteWritten } from '../events/note-events';
import { NoteCaps } from './note-caps';
import { NoteConditions } from './note-conditions';
import { NoteState } from './note-state';
import {
  assertConditionsHold,
  assertNonceUnused,
  assertNoteBytesFit,
  assertNoteCapacity,
} from './note-write.rules';
import { ROOM_ALLOW, ROOM_NONCE } from '../ownership/reserved-namespaces';

export interface NoteWriteCommand {
  readonly ns: string;
  readonly key: string;
  /** Already swept and length-checked. */
  readonly value: string;
  readonly conditions: NoteConditions;
  /** Ownership writes (already verified and admitted by the gate): the signer and the nonce as sent. */
  readonly signed?: { readonly did: string; readonly nonce: string };
  /** A first claim: an existing allow-list of the room is reset to `none` in the same batch. */
  readonly resetAllowList?: boolean;
  /** The client's idempotency key, logged with its note (never with a burn or a reset). */
  readonly idempotencyKey?: string;
}

/** Everything a note write is decided against, read from NoteWriteModel (pending writes included). */
export interface NoteWriteState {
  readonly current: NoteState | null;
  /** The room's ownership-nonce counter (`room-nonce/<key>`), for signed writes. */
  readonly nonceCounter: string | null;
  /** Whether the room has an allow-list (`room-allow/<key>`), for a first claim. */
  readonly hasAllowList: boolean;
  /** UTF-8 bytes of every stored value, and the note counts (capacity asks only for new notes). */
  readonly storedBytes: number;
  readonly inNamespace: number;
  readonly total: number;
}

/** The deployment's note limits. */
export interface NoteLimits {
  readonly caps: NoteCaps;
  readonly budgetBytes: number;
  readonly idleDays: number;
}

export interface NoteWriteAck {
  readonly ns: string;
  readonly key: string;
  /** UTF-8 bytes of the stored value. */
  readonly bytes: number;
  /** Write time, µs since the epoch. */
  readonly at: number;
  readonly signer?: string;
  /** The answer to a retry: this write was made before, under the same idempotency key. */
  readonly replayed?: boolean;
}

/**
 * What a decision appends and answers. A refusal may still carry events: a burned ownership nonce is
 * appended even when the write then fails its condition or a cap (never refunded, §10.4).
 */
export type NoteWriteDecision =
  | { readonly events: readonly NoteWritten[]; readonly ack: NoteWriteAck }
  | { readonly events: readonly NoteWritten[]; readonly refusal: Error };

/**
 * The note write rules in the contract's order, pure: names (400) → ownership-nonce burn (403) →
 * conditions (409) → note-byte budget for a new or longer value (400) → capacity for a new note (400).
 * Throws when nothing is to be appended; returns a refusal with events when a burn must still land.
 */
export function decideNoteWrite(
  command: NoteWriteCommand,
  state: NoteWriteState,
  limits: NoteLimits,
  at: number,
): NoteWriteDecision {
  const { ns, key, value, signed } = command;
  assertName(ns);
  assertName(key);
  const events: NoteWritten[] = [];
  if (signed !== undefined) {
    // The counter of a room's ownership notes is keyed by the room, which is the note's key.
    assertNonceUnused(key, signed.nonce, state.nonceCounter);
    events.push({ type: 'note.written', ns: ROOM_NONCE, key, value: signed.nonce, at });
  }
  try {
    assertWritable(command, state, limits);
  } catch (refusal) {
    if (events.length === 0) throw refusal;
    return { events, refusal: refusal as Error };
  }
  if (command.resetAllowList === true && state.hasAllowList) {
    events.push({ type: 'note.written', ns: ROOM_ALLOW, key, value: 'none', at });
  }
  const signer = signed ? { signer: signed.did } : {};
  const keyed = command.idempotencyKey === undefined ? {} : { idempotencyKey: command.idempotencyKey };
  events.push({ type: 'note.written', ns, key, value, at, ...signer, ...keyed });
  return { events, ack: { ns, key, bytes: Buffer.byteLength(value, 'utf8'), at, ...signer } };
}

function assertWritable(command: NoteWriteCommand, state: NoteWriteState, limits: NoteLimits): void {
  const { ns, key, value, conditions } = command;
  const { current } = state;
  const { idleDays } = limits;
  assertConditionsHold({ ns, key, conditions, current, idleDays });
  assertNoteBytesFit({
    budgetBytes: limits.budgetBytes,
    storedBytes: state.storedBytes,
    newBytes: Buffer.byteLength(value, 'utf8'),
    oldBytes: current === null ? 0 : Buffer.byteLength(current.value, 'utf8'),
    idleDays,
  });
  if (current !== null) return;
  assertNoteCapacity({ ns, caps: limits.caps, inNamespace: state.inNamespace, total: state.total, idleDays });
}
