import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { RoomBudgetSpentError } from './room-budget-spent.error';
import { clientNetwork } from './client-network';
import { RoomHoldings } from './room-holdings';
import { RoomReserveError } from './room-reserve.error';
import { TokenBucketTable } from './token-bucket-table';

/** One charged room-creation token; refunding it more than once has no further effect. */
export interface CreationCharge {
  refund(): void;
}

export const NOTHING_CHARGED: CreationCharge = { refund: () => undefined };

/** What the budget asks of the rooms' read side (the caller owns it; access imports no feature). */
export interface RoomCensus {
  /** Rooms that can still be created under CHAT_MAX_ROOMS. */
  freeRooms(): number;
  exists(room: string): boolean;
}

/** Rooms of the cap kept for clients that hold none (CHAT_ROOMS_RESERVE_PERCENT of CHAT_MAX_ROOMS). */
export function reservedRooms(config: Pick<AppConfig, 'maxRooms' | 'roomsReservePercent'>): number {
  return Math.floor((config.maxRooms * config.roomsReservePercent) / 100);
}

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
 *
 * Newcomers' reserve (issue 24 item 7): the shares still let a hundred-odd addresses fill a small
 * cap, and their daily budgets refill, so nobody else could start a room until the reaper freed some
 * (up to a day for stillborn rooms), and then only until those addresses took it again. So the last
 * CHAT_ROOMS_RESERVE_PERCENT of the cap is kept for networks (/24, /48: clientNetwork) none of whose
 * addresses holds a room created from it (RoomHoldings): while only that many are free, a client of
 * such a network is refused (429, no token spent) however its budget refills, and a client of any
 * other network may create one. Filling the reserve takes as many networks as it has rooms.
 */
@Injectable()
export class RoomCreationBudget {
  private readonly table: TokenBucketTable;
  private readonly holdings: RoomHoldings;
  private readonly reserved: number;

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
    this.holdings = new RoomHoldings(config.maxRooms);
    this.reserved = reservedRooms(config);
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

  /** Spends one of `client`'s creation tokens for `room`, or throws the 429 (its share or the reserve). */
  charge(client: string, room: string, census: RoomCensus): CreationCharge {
    const freeRooms = census.freeRooms();
    this.assertOutsideReserve({ client, room, freeRooms, census });
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
    this.holdings.record(clientNetwork(client), room, (name) => census.exists(name));
    let refunded = false;
    return {
      refund: () => {
        if (refunded) return;
        refunded = true;
        this.table.refund(client);
      },
    };
  }

  /** While only the reserve is free, a client holding a room it created gets none of it. */
  private assertOutsideReserve(ask: {
    client: string;
    room: string;
    freeRooms: number;
    census: RoomCensus;
  }): void {
    const { client, room, freeRooms, census } = ask;
    if (freeRooms <= 0 || freeRooms > this.reserved) return;
    const network = clientNetwork(client);
    const held = this.holdings.held(network, (name) => census.exists(name), 3);
    if (held.length === 0) return;
    const { maxRooms, reapEverySeconds, retentionSeconds, stillbornSeconds } = this.config;
    throw new RoomReserveError({
      room,
      network,
      held,
      freeRooms,
      reserved: this.reserved,
      maxRooms,
      reapEverySeconds,
      retentionSeconds,
      stillbornSeconds,
    });
  }
}
