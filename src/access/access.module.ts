import { Global, Module } from '@nestjs/common';
import { DuplicateFilter } from './duplicate-filter';
import { RateBuckets } from './rate-buckets.service';
import { RoomCreationBudget } from './room-creation-budget';
import { StreamSlots } from './stream-slots';
import { WaitSlots } from './wait-slots';

/**
 * The per-process abuse state: rate buckets, room-creation budget, long-poll slots, stream slots, duplicate filter.
 * Each is one concern with bounded memory, read from the config once. Global because every feature
 * module's lanes use them; the guards that spend from them are registered by the composition root.
 */
@Global()
@Module({
  providers: [RateBuckets, RoomCreationBudget, WaitSlots, StreamSlots, DuplicateFilter],
  exports: [RateBuckets, RoomCreationBudget, WaitSlots, StreamSlots, DuplicateFilter],
})
export class AccessModule {}
