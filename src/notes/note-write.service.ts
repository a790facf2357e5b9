import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { NoteEvent } from '../events/note-events';
import { ConflictRetry } from '../write/conflict-retry';
import { EventWriter } from '../write/event-writer';
import { noteCaps } from './note-caps';
import { decideNoteWrite, NoteLimits, NoteWriteAck, NoteWriteCommand } from './note-write.decider';
import { KeyedNoteWrite, NoteWriteModel } from './note-write.model';
import { noteFingerprint, noteKeyId } from './idempotency/note-keys.projection';

export type { NoteWriteAck, NoteWriteCommand } from './note-write.decider';

/** One note a reaper pass wants to reclaim, with the write time it saw. */
export interface ReclaimCandidate {
  readonly ns: string;
  readonly key: string;
  readonly lastWriteAt: number;
}

/**
 * The one place note events are decided and written. `write` runs the write step of every note lane
 * (decideNoteWrite: the rules in the contract's order) against NoteWriteModel and appends in the same
 * synchronous step (no await before the append), which is what makes compare-and-set and the nonce
 * burn atomic. A burn is appended even when the write then fails its condition or capacity: burned
 * nonces are never refunded (§10.4). Lanes run their gates synchronously right before calling, so
 * those decisions are part of the step, and re-run gate and write together after a conflict.
 */
@Injectable()
export class NoteWriteService {
  private readonly limits: NoteLimits;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly writer: EventWriter,
    private readonly model: NoteWriteModel,
    private readonly clock: Clock,
    private readonly retry: ConflictRetry,
  ) {
    this.limits = {
      caps: noteCaps(config),
      idleDays: Math.round(config.retentionSeconds / 86400),
      budgetBytes: config.noteBytesMb * 1024 * 1024,
    };
  }

  /**
   * One decision and append; synchronous up to the append. A conflict with another node's write
   * (shared log) rejects with ExpectedHeadMismatchError: the lane runs its gate and this again inside
   * ConflictRetry, so conditions and nonce are re-checked against that write.
   */
  async write(command: NoteWriteCommand): Promise<NoteWriteAck> {
    const state = this.model.stateFor(command.ns, command.key);
    const decision = decideNoteWrite(command, state, this.limits, this.clock.nowMicros());
    if ('refusal' in decision) {
      await this.commit(decision.events);
      throw decision.refusal;
    }
    await this.commit(decision.events, keyedWrite(command, decision.ack));
    return decision.ack;
  }

  /**
   * Reclaims the candidates still unchanged since the reaper looked (one batch); returns how many.
   * A note written in between, or with a write in flight, is left alone.
   */
  reclaim(candidates: readonly ReclaimCandidate[]): Promise<number> {
    return this.retry.run(() => this.reclaimOnce(candidates));
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

  private async commit(events: readonly NoteEvent[], keyed?: KeyedNoteWrite): Promise<void> {
    await this.writer.write(events, this.model.effectsOf(events, keyed));
  }
}

/** The key index entry of an accepted keyed write (recorded as pending with its append). */
function keyedWrite(command: NoteWriteCommand, ack: NoteWriteAck): KeyedNoteWrite | undefined {
  if (command.idempotencyKey === undefined) return undefined;
  const { ns, key, value } = command;
  const signer = command.signed?.did;
  return {
    id: noteKeyId(ns, key, signer, command.idempotencyKey),
    entry: {
      at: ack.at,
      bytes: ack.bytes,
      fp: noteFingerprint(value),
      ...(signer === undefined ? {} : { signer }),
    },
  };
}
