import { Injectable } from '@nestjs/common';
import { DuplicateFilter, DuplicateReservation } from '../access/duplicate-filter';
import { CreationCharge } from '../access/room-creation-budget';
import { GateRequest, RoomWriteGate } from './room-write-gate';
import { AppendedMessage } from './room-write.service';

/**
 * What one message write holds once it passed the room gate: the creation token the gate charged
 * and, once the lane reserved it, a duplicate-filter copy. Lanes call its steps where their order puts
 * them and end in `accepted` or `refused`, which keep the budgets honest: a creation token is refunded
 * when the write did not create the room (seq ≠ 1: another writer created it first, or a reaped room's
 * seq continued) and on any refusal after the charge (the duplicate 422 included); a reserved copy is
 * released when the write is refused. So only accepted copies and real creations are ever counted.
 */
export class MessageAdmission {
  private reservation: DuplicateReservation | null = null;

  constructor(
    private readonly room: string,
    private readonly charge: CreationCharge,
    private readonly duplicates: DuplicateFilter,
  ) {}

  /** The duplicate filter (422): counts this copy of `text` in the room, or refuses it. */
  reserveDuplicate(text: string): void {
    this.reservation = this.duplicates.reserve(this.room, text);
  }

  /** The append succeeded: the creation token stays spent only if this write created the room. */
  accepted(appended: AppendedMessage): AppendedMessage {
    if (appended.seq !== 1) this.charge.refund();
    return appended;
  }

  /** A check or the append refused the write: hands back what was counted; returns `error` to rethrow. */
  refused(error: unknown): unknown {
    this.reservation?.release();
    this.charge.refund();
    return error;
  }
}

/** Opens a MessageAdmission: runs the room write gate, whose creation charge the admission then holds. */
@Injectable()
export class MessageAdmissions {
  constructor(
    private readonly gate: RoomWriteGate,
    private readonly duplicates: DuplicateFilter,
  ) {}

  /** The room write gate: events 403 → mailbox 403 → name 400 → owned room 403 → creation budget 429. */
  admit(request: GateRequest): MessageAdmission {
    return new MessageAdmission(request.room, this.gate.admit(request), this.duplicates);
  }
}
