import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { RoomEvent } from '../events/chat-event';
import { ConflictRetry } from '../write/conflict-retry';
import { EventWriter } from '../write/event-writer';
import { messageFingerprint, messageKeyId } from './idempotency/message-keys.projection';
import { AppendMessage, decideAppend } from './room-append.decider';
import { KeyedAppend, RoomWriteModel, SpentNonce } from './room-write.model';

export type { AppendMessage, MessageSignature } from './room-append.decider';

export interface AppendedMessage {
  readonly room: string;
  readonly seq: number;
  /** The stored record line, exactly as the ring holds it. */
  readonly record: string;
  /** The answer to a retry: this write was made before, under the same idempotency key. */
  readonly replayed?: boolean;
}

/**
 * The one place room events are decided and written. Decide → append → record the pending state all
 * happen in one synchronous step (EventWriter, RoomWriteModel); the caller gets its answer only after
 * the log made the events durable and the projections applied them, so the reply reads its own write.
 */
@Injectable()
export class RoomWriteService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly writer: EventWriter,
    private readonly writeModel: RoomWriteModel,
    private readonly clock: Clock,
    private readonly retry: ConflictRetry,
  ) {}

  /** Whether a write to `room` would create it (the creation budget asks before deciding). */
  wouldCreate(room: string): boolean {
    return !this.writeModel.view(room).exists;
  }

  /** Rooms that can still be created under CHAT_MAX_ROOMS (the creation fair share asks). */
  freeRooms(): number {
    return Math.max(0, this.config.maxRooms - this.writeModel.roomCount());
  }

  /** Reaps an idle room unless it was written since the reaper looked (then nothing happens). */
  reap(room: string, lastSeq: number): Promise<boolean> {
    return this.retry.run(() => this.reapOnce(room, lastSeq));
  }

  /**
   * One decision and append. A conflict with another node's write (shared log) rejects with
   * ExpectedHeadMismatchError; the lane decides again from its gate (ConflictRetry).
   */
  async append(message: AppendMessage): Promise<AppendedMessage> {
    const state = this.writeModel.stateFor(message.room, message.from);
    const at = this.clock.nowMicros();
    const decision = decideAppend(message, state, this.config, at);
    const keyed: KeyedAppend | undefined =
      message.idempotencyKey === undefined
        ? undefined
        : {
            id: messageKeyId(message.room, message.from, message.idempotencyKey),
            entry: { at, seq: decision.seq, fp: messageFingerprint(message.text) },
          };
    await this.commit(decision.events, decision.spent, keyed);
    return { room: message.room, seq: decision.seq, record: decision.record };
  }

  private async reapOnce(room: string, lastSeq: number): Promise<boolean> {
    const state = this.writeModel.view(room);
    if (!state.exists || state.head !== lastSeq || this.writeModel.hasPending(room)) return false;
    await this.commit([{ type: 'room.reaped', room, lastSeq, at: this.clock.nowMicros() }]);
    return true;
  }

  private commit(events: readonly RoomEvent[], spent?: SpentNonce, keyed?: KeyedAppend): Promise<number> {
    return this.writer.write(events, this.writeModel.effectsOf(events, spent, keyed));
  }
}
