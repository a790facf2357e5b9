import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { RoomEvent } from '../events/chat-event';
import { encodeEvent } from '../events/event-codec';
import { EventLog } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { ProjectionRunner } from '../projections/projection-runner';
import { assertRoomCapacity } from './room-capacity';
import { assertFreshNonce, decideAppend, EVENTS_ROOM, MessageSignature } from './room-rules';
import { nextWriteState, RoomWriteModel } from './room-write-model';
import { RoomsProjection } from './rooms.projection';

export interface AppendMessage {
  readonly room: string;
  readonly from: string;
  readonly text: string;
  readonly signature?: MessageSignature;
}

export interface AppendedMessage {
  readonly room: string;
  readonly seq: number;
  /** The stored record line, exactly as the ring holds it. */
  readonly record: string;
  readonly createdRoom: boolean;
}

interface SpentNonce {
  readonly room: string;
  readonly did: string;
  readonly nonce: bigint;
}

/**
 * The one place room events are appended. Decide → append → record the pending state all happen in
 * one synchronous step (see RoomWriteModel); the caller gets its answer only after the log made the
 * events durable and the projections applied them, so the reply reads its own write.
 */
@Injectable()
export class RoomWriteService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly runner: ProjectionRunner,
    private readonly writeModel: RoomWriteModel,
    private readonly rooms: RoomsProjection,
    private readonly clock: Clock,
  ) {}

  /** Whether a write to `room` would create it (the creation budget asks before deciding). */
  wouldCreate(room: string): boolean {
    return !this.writeModel.view(room).exists;
  }

  async append(message: AppendMessage): Promise<AppendedMessage> {
    const target = this.writeModel.view(message.room);
    if (!target.exists)
      assertRoomCapacity(this.config, this.writeModel.roomCount(), this.rooms.liveRoomBytes);
    const nonce = message.signature ? BigInt(message.signature.nonceDigits) : null;
    if (nonce !== null)
      assertFreshNonce(message.room, nonce, this.writeModel.lastNonce(message.room, message.from));
    const decision = decideAppend({
      ...message,
      target,
      eventsRoom: this.writeModel.view(EVENTS_ROOM),
      atMicros: this.clock.nowMicros(),
    });
    await this.commit(
      decision.events,
      nonce === null ? undefined : { room: message.room, did: message.from, nonce },
    );
    return {
      room: message.room,
      seq: decision.seq,
      record: decision.record,
      createdRoom: decision.createsRoom,
    };
  }

  /** Reaps an idle room unless it was written since the reaper looked (then nothing happens). */
  async reap(room: string, lastSeq: number): Promise<boolean> {
    const state = this.writeModel.view(room);
    if (!state.exists || state.head !== lastSeq || this.writeModel.hasPending(room)) return false;
    await this.commit([{ type: 'room.reaped', room, lastSeq, at: this.clock.nowMicros() }]);
    return true;
  }

  private async commit(events: readonly RoomEvent[], spent?: SpentNonce): Promise<void> {
    const appended = this.log.append(events.map(encodeEvent));
    const last = this.log.head() - 1;
    if (spent) this.writeModel.recordNonce(spent.room, spent.did, spent.nonce, last);
    const touched = new Set<string>();
    for (const event of events) {
      this.writeModel.record(event.room, nextWriteState(this.writeModel.view(event.room), event), last);
      touched.add(event.room);
    }
    await appended;
    await this.runner.whenApplied(last);
    for (const room of touched) this.writeModel.settle(room, last);
    if (spent) this.writeModel.settleNonce(spent.room, spent.did, last);
  }
}
