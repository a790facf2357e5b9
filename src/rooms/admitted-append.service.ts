import { Injectable } from '@nestjs/common';
import { DuplicateFilter, DuplicateReservation } from '../access/duplicate-filter';
import { CreationCharge } from '../access/room-creation-budget';
import { ConflictRetry } from '../projections/conflict-retry';
import { GateRequest, RoomWriteGate } from './room-write-gate';
import { AppendedMessage } from './room-write.service';

/** One message write as a lane hands it over: who is writing where, and the steps it owns. */
export interface AdmittedWrite {
  readonly gate: GateRequest;
  /** The text the duplicate filter keys (raw on the unsigned lanes, swept on the signed ones). */
  readonly dupeText: string;
  /** Lane checks that sit between the gate and the duplicate filter (the POST lane's `from`). */
  readonly beforeDuplicates?: () => void;
  /** The lane's remaining checks and the append itself. */
  readonly append: () => Promise<AppendedMessage>;
}

/**
 * The common spine of every message lane (contract §12): room write gate (its creation charge last)
 * → lane checks → duplicate filter → lane checks and append. It owns the bookkeeping the budgets
 * need: a creation token is refunded when the write did not create the room (seq ≠ 1: another
 * writer created it first, or a reaped room's seq continued) and on any refusal after the charge
 * (the duplicate 422 included); a duplicate reservation is released when the append fails.
 */
@Injectable()
export class AdmittedAppendService {
  constructor(
    private readonly gate: RoomWriteGate,
    private readonly duplicates: DuplicateFilter,
    private readonly retry: ConflictRetry,
  ) {}

  /**
   * After a conflict with another node's write (shared log) the whole spine runs again — gate
   * included, so an owner claim or allow-list that landed through another node governs the retry.
   */
  append(write: AdmittedWrite): Promise<AppendedMessage> {
    return this.retry.run(() => this.admitAndAppend(write));
  }

  private async admitAndAppend(write: AdmittedWrite): Promise<AppendedMessage> {
    const charge: CreationCharge = this.gate.admit(write.gate);
    let reservation: DuplicateReservation | undefined;
    try {
      write.beforeDuplicates?.();
      reservation = this.duplicates.reserve(write.gate.room, write.dupeText);
      const appended = await write.append();
      if (appended.seq !== 1) charge.refund();
      return appended;
    } catch (error) {
      reservation?.release();
      charge.refund();
      throw error;
    }
  }
}
