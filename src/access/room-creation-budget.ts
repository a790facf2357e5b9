import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { RoomBudgetSpentError } from './room-budget-spent.error';
import { TokenBucketTable } from './token-bucket-table';

/** One charged room-creation token; refunding it more than once has no further effect. */
export interface CreationCharge {
  refund(): void;
}

export const NOTHING_CHARGED: CreationCharge = { refund: () => undefined };

/**
 * New rooms per client per day (contract §13.2): capacity N, one token back every 86400/N seconds.
 * The write gate charges it last, only when the write would create the room; the caller refunds the
 * token when the write turns out not to have created it (another writer got there first, a reaped
 * room's seq continued, a duplicate or any later refusal). Table bounded like the rate buckets.
 *
 * Fair share of the room cap (issue 18): the burst a client may use shrinks with the free room
 * capacity, to `max(1, ceil(N × free / CHAT_MAX_ROOMS))`, so no client takes more than its share of
 * what is left. With the defaults (N = 20, 5,120 rooms) 256 addresses at their full budget filled the
 * cap for everyone; now each address takes 1/256 of what is free, and filling it takes about 1,000.
 * With no room free the share is not applied: the room cap's own 400 is the answer.
 */
@Injectable()
export class RoomCreationBudget {
  private readonly table: TokenBucketTable;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    clock: Clock,
  ) {
    const perDay = config.rateRoomsPerDay;
    this.table = new TokenBucketTable(
      { capacity: perDay, perSecond: perDay / 86_400 },
      config.rateMaxBuckets,
      clock,
    );
  }

  get size(): number {
    return this.table.size;
  }

  /** The burst a client may use while `freeRooms` rooms are free. */
  share(freeRooms: number): number {
    const { rateRoomsPerDay: perDay, maxRooms } = this.config;
    if (freeRooms <= 0) return perDay;
    return Math.min(perDay, Math.max(1, Math.ceil((perDay * freeRooms) / maxRooms)));
  }

  /** Spends one of `client`'s creation tokens for `room`, or throws the 429. */
  charge(client: string, room: string, freeRooms: number): CreationCharge {
    const share = this.share(freeRooms);
    const take = this.table.take(client, this.config.rateRoomsPerDay - share);
    if (!take.granted) {
      throw new RoomBudgetSpentError({
        room,
        roomsPerDay: this.config.rateRoomsPerDay,
        waitSeconds: take.waitSeconds,
        maxRooms: this.config.maxRooms,
        retentionSeconds: this.config.retentionSeconds,
        share: share < this.config.rateRoomsPerDay ? { freeRooms, burst: share } : undefined,
      });
    }
    let refunded = false;
    return {
      refund: () => {
        if (refunded) return;
        refunded = true;
        this.table.refund(client);
      },
    };
  }
}
