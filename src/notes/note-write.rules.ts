import { sweptText, SweptTextRule } from '../common/swept-text';
import { FIXED_LIMITS } from '../config/app-config';
import { BadRequestError } from '../common/errors/bad-request.error';
import { ForbiddenError } from '../common/errors/forbidden.error';
import { NoteConflictError } from './errors/note-conflict.error';
import { NoteCaps } from './note-caps';
import { NoteConditions } from './note-conditions';
import { NoteState } from './note-state';
import { ROOM_NONCE } from '../ownership/reserved-namespaces';

/** Sweeps a note value and enforces 1..8192 code points (contract §5.2, same wording as texts). */
export function sweptNoteValue(raw: string): string {
  return sweptText(raw, NOTE_VALUE);
}

const NOTE_VALUE: SweptTextRule = {
  maxChars: FIXED_LIMITS.noteChars,
  whenEmpty: 'A note value needs at least one visible character.',
  limitIs: 'the limit for a note value is',
  split: 'Split it over several keys',
  longWhat: 'values',
  post: 'POST /kv/<ns>/<key>',
};

export interface ConditionCheck {
  readonly ns: string;
  readonly key: string;
  readonly conditions: NoteConditions;
  readonly current: NoteState | null;
  readonly idleDays: number;
}

/** Evaluates a write's conditions against the current note (contract §10.3); a loss is a 409. */
export function assertConditionsHold(check: ConditionCheck): void {
  const { ns, key, conditions, current, idleDays } = check;
  if (conditions.ifAbsent && current !== null) {
    throw new NoteConflictError(ns, key, 'already_exists', current.value, idleDays);
  }
  if (conditions.ifValue !== null && current?.value !== conditions.ifValue) {
    throw new NoteConflictError(ns, key, 'changed', current?.value ?? null, idleDays);
  }
}

export interface CapacityCheck {
  readonly ns: string;
  readonly caps: NoteCaps;
  readonly inNamespace: number;
  readonly total: number;
  readonly idleDays: number;
}

/** Capacity for new notes (contract §10.3): overwrites always proceed; a new one past a cap is a 400. */
export function assertNoteCapacity(check: CapacityCheck): void {
  const { ns, caps, idleDays } = check;
  if (check.inNamespace >= caps.perNamespace) {
    throw new BadRequestError(
      `note limit reached (${caps.perNamespace} is the cap per namespace, and /kv/${ns} holds it): overwrite ` +
        `an existing key instead (GET /kv/${ns} lists them). Notes idle for ${idleDays} days are reclaimed.`,
    );
  }
  if (check.total >= caps.total) {
    throw new BadRequestError(
      `global note limit reached (${caps.total} is the cap across every namespace): a fresh namespace buys ` +
        `nothing; overwrite an existing note instead. Notes idle for ${idleDays} days are reclaimed.`,
    );
  }
}

export interface ByteBudgetCheck {
  readonly budgetBytes: number;
  /** UTF-8 bytes of every stored value, pending writes included. */
  readonly storedBytes: number;
  /** UTF-8 bytes of the value being written, and of the value it replaces (0 for a new note). */
  readonly newBytes: number;
  readonly oldBytes: number;
  readonly idleDays: number;
}

/**
 * The note-byte budget (CHAT_NOTE_BYTES_MB, issue 18): note values live in the heap, so their total is
 * capped. A write that does not grow the total (a shorter or equal overwrite) always proceeds, so a
 * full store can still be updated in place; a new or longer value past the budget is a 400, like the
 * count caps (clients already branch on "limit reached" 400s; see docs/decisions.md).
 */
export function assertNoteBytesFit(check: ByteBudgetCheck): void {
  const growth = check.newBytes - check.oldBytes;
  if (growth <= 0 || check.storedBytes + growth <= check.budgetBytes) return;
  throw new BadRequestError(
    `note storage limit reached (note values may total ${check.budgetBytes} bytes across every namespace, ` +
      `${check.storedBytes} are stored, and this write adds ${growth}): write a shorter value or overwrite ` +
      `an existing note with one no longer than it. Notes idle for ${check.idleDays} days are reclaimed.`,
  );
}

/**
 * The ownership-nonce rule (contract §10.4): the nonce must be strictly greater, as an integer, than
 * the room's counter in room-nonce; a counter that is not digits refuses everything (fail closed).
 */
export function assertNonceUnused(room: string, nonceAsSent: string, counter: string | null): void {
  if (counter === null) return;
  if (/^[0-9]+$/.test(counter) && BigInt(nonceAsSent) > BigInt(counter)) return;
  throw new ForbiddenError(
    `nonce ${nonceAsSent} was already used: the ownership notes of ${room} (room-owners and room-allow) ` +
      `share one counter, /kv/${ROOM_NONCE}/${room}, which stands at ${counter}. Sign again with a larger ` +
      'nonce (a millisecond clock works).',
  );
}
