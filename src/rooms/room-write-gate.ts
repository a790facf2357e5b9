import { Injectable } from '@nestjs/common';
import {
  CreationCharge,
  NOTHING_CHARGED,
  RoomCensus,
  RoomCreationBudget,
} from '../access/room-creation-budget';
import { RoomOwnership } from '../ownership/room-ownership';
import { assertRoomAcceptsWrite } from './room-write.rules';
import { RoomWriteService } from './room-write.service';

export interface GateRequest {
  readonly room: string;
  /** The did:key of a verified signed write, or null for the unsigned lanes. */
  readonly signer: string | null;
  /** The client identity the per-client budgets are charged to. */
  readonly client: string;
}

/**
 * The room write gate (contract §8.3), one place for every message lane, in this order:
 * events room 403 → mailbox without signature 403 → room name 400 → owned room 403 → creation budget
 * 429 (only when the write would create the room). Lanes call it after their own parsing and before
 * the duplicate filter and the append; the returned charge is refunded when the write does not end up
 * creating the room (see MessageAdmission).
 */
@Injectable()
export class RoomWriteGate {
  /** What the creation budget asks of the rooms (free capacity, which rooms exist). */
  private readonly census: RoomCensus = {
    freeRooms: () => this.writer.freeRooms(),
    exists: (room) => !this.writer.wouldCreate(room),
  };

  constructor(
    private readonly ownership: RoomOwnership,
    private readonly writer: RoomWriteService,
    private readonly creations: RoomCreationBudget,
  ) {}

  admit(request: GateRequest): CreationCharge {
    assertRoomAcceptsWrite(request.room, request.signer !== null);
    this.ownership.assertAdmits(request.room, request.signer);
    if (!this.writer.wouldCreate(request.room)) return NOTHING_CHARGED;
    return this.creations.charge(request.client, request.room, this.census);
  }
}
