import { Injectable } from '@nestjs/common';
import { assertRoomAcceptsWrite } from './room-rules';

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
 * the duplicate filter and the append.
 */
@Injectable()
export class RoomWriteGate {
  admit(request: GateRequest): void {
    assertRoomAcceptsWrite(request.room, request.signer !== null);
  }
}
