import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { assertName } from '../../common/names';
import { ServiceKey } from '../../identity/service-key';
import { RoomsProjection } from '../rooms.projection';
import { headSigningPayload, RoomHead } from './room-head';
import { RoomNotFoundError } from './room-not-found.error';

/**
 * Signs a room's current head. Everything but `time` and `signature` comes from the rooms projection,
 * a deterministic fold of the log, so two nodes at one seq state the same hashes (docs/operations.md,
 * Audit: replicas are compared by `head`, not by the signature).
 */
@Injectable()
export class RoomHeadService {
  constructor(
    private readonly rooms: RoomsProjection,
    private readonly key: ServiceKey,
    private readonly clock: Clock,
  ) {}

  head(room: string): RoomHead {
    assertName(room);
    const meta = this.rooms.meta(room);
    if (meta === undefined || !meta.exists) throw new RoomNotFoundError(room);
    if (meta.chain === '') {
      throw new RoomNotFoundError(room, 'this server keeps no room chains (CHAT_ROOM_CHAIN=off)');
    }
    const unsigned = {
      room,
      generation: meta.generation,
      first_seq: meta.firstSeq,
      last_seq: meta.head,
      anchor: meta.anchor,
      head: meta.chain,
      time: new Date(this.clock.nowMs()).toISOString(),
      service_did: this.key.did,
    };
    return { ...unsigned, signature: this.key.sign(headSigningPayload(unsigned)) };
  }
}
