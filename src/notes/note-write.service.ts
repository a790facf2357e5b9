import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { assertName } from '../common/names';
import { ConflictRetry } from '../projections/conflict-retry';
import { EventWriter } from '../projections/event-writer';
import { NoteCaps, noteCaps } from './note-caps';
import { NoteConditions } from './note-conditions';
import { NoteEvent, NoteWritten } from '../events/note-events';
import {
  assertConditionsHold,
  assertNonceUnused,
  assertNoteBytesFit,
  assertNoteCapacity,
} from './note-rules';
import { NoteWriteModel } from './note-write.model';
import { ROOM_ALLOW, ROOM_NONCE } from './reserved-namespaces';

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
}

export interface NoteWriteAck {
  readonly ns: string;
  readonly key: string;
  /** UTF-8 bytes of the stored value. */
  readonly bytes: number;
  /** Write time, µs since the epoch. */
  readonly at: number;
  readonly signer?: string;
}

/** One note a reaper pass wants to reclaim, with the write time it saw. */
export interface ReclaimCandidate {
  readonly ns: string;
  readonly key: string;
  readonly lastWriteAt: number;
}

/**
 * The one place note events are appended. `write` runs the write step of every note lane in the
 * contract's order — names (400) → ownership-nonce burn (403) → conditions (409) → note-byte budget
 * for a new or longer value (400, issue 18) → capacity for a new note (400) — against NoteWriteModel, and appends in the same synchronous step (no await before the
 * append), which is what makes compare-and-set and the nonce burn atomic. A burn is appended even
 * when the write then fails its condition or capacity: burned nonces are never refunded (§10.4).
 * Callers run their gates synchronously right before calling, so those decisions are part of the step.
 */
@Injectable()
export class NoteWriteService {
  private readonly caps: NoteCaps;
  private readonly idleDays: number;
  private readonly noteBudgetBytes: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly writer: EventWriter,
    private readonly model: NoteWriteModel,
    private readonly clock: Clock,
    private readonly retry: ConflictRetry,
  ) {
    this.caps = noteCaps(config);
    this.idleDays = Math.round(config.retentionSeconds / 86400);
    this.noteBudgetBytes = config.noteBytesMb * 1024 * 1024;
  }

  /**
   * Decided again after a conflict with another node's write (ConflictRetry): conditions and nonce
   * re-checked. Lanes pass a function that runs their gate and returns the command, so the gate is
   * re-run too and stays in the same synchronous step as the append.
   */
  write(decide: NoteWriteCommand | (() => NoteWriteCommand)): Promise<NoteWriteAck> {
    return this.retry.run(() => this.decideAndWrite(typeof decide === 'function' ? decide() : decide));
  }

  /**
   * Reclaims the candidates still unchanged since the reaper looked (one batch); returns how many.
   * A note written in between, or with a write in flight, is left alone.
   */
  reclaim(candidates: readonly ReclaimCandidate[]): Promise<number> {
    return this.retry.run(() => this.reclaimOnce(candidates));
  }

  private async decideAndWrite(command: NoteWriteCommand): Promise<NoteWriteAck> {
    const { ns, key, value, signed } = command;
    assertName(ns);
    assertName(key);
    const at = this.clock.nowMicros();
    const events: NoteWritten[] = [];
    if (signed !== undefined) {
      // The counter of a room's ownership notes is keyed by the room, which is the note's key.
      assertNonceUnused(key, signed.nonce, this.model.view(ROOM_NONCE, key)?.value ?? null);
      events.push({ type: 'note.written', ns: ROOM_NONCE, key, value: signed.nonce, at });
    }
    try {
      this.assertWritable(command);
    } catch (refusal) {
      if (events.length > 0) await this.commit(events);
      throw refusal;
    }
    if (command.resetAllowList === true && this.model.view(ROOM_ALLOW, key) !== null) {
      events.push({ type: 'note.written', ns: ROOM_ALLOW, key, value: 'none', at });
    }
    events.push({ type: 'note.written', ns, key, value, at, ...(signed ? { signer: signed.did } : {}) });
    await this.commit(events);
    return {
      ns,
      key,
      bytes: Buffer.byteLength(value, 'utf8'),
      at,
      ...(signed ? { signer: signed.did } : {}),
    };
  }

  private async reclaimOnce(candidates: readonly ReclaimCandidate[]): Promise<number> {
    const at = this.clock.nowMicros();
    const events: NoteEvent[] = [];
    for (const { ns, key, lastWriteAt } of candidates) {
      if (this.model.hasPending(ns, key) || this.model.view(ns, key)?.lastWriteAt !== lastWriteAt) continue;
      events.push({ type: 'note.reclaimed', ns, key, at, expectedLastWriteAt: lastWriteAt });
    }
    if (events.length > 0) await this.commit(events);
    return events.length;
  }

  private assertWritable({ ns, key, value, conditions }: NoteWriteCommand): void {
    const current = this.model.view(ns, key);
    assertConditionsHold({ ns, key, conditions, current, idleDays: this.idleDays });
    assertNoteBytesFit({
      budgetBytes: this.noteBudgetBytes,
      storedBytes: this.model.totalBytes(),
      newBytes: Buffer.byteLength(value, 'utf8'),
      oldBytes: current === null ? 0 : Buffer.byteLength(current.value, 'utf8'),
      idleDays: this.idleDays,
    });
    if (current !== null) return;
    assertNoteCapacity({
      ns,
      caps: this.caps,
      inNamespace: this.model.countIn(ns),
      total: this.model.total(),
      idleDays: this.idleDays,
    });
  }

  private async commit(events: readonly NoteEvent[]): Promise<void> {
    await this.writer.write(events, this.model.effectsOf(events));
  }
}
