import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { RateKind } from './rate-bucket.decorator';
import { Take, TokenBucketTable } from './token-bucket-table';

/**
 * The per-client read and write buckets (contract §13.1): `per_min` tokens of burst, refilled
 * continuously at `per_min / 60` per second. Per process, like the reference's.
 */
@Injectable()
export class RateBuckets {
  private readonly tables: Readonly<Record<RateKind, TokenBucketTable>>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    clock: Clock,
  ) {
    const table = (perMinute: number): TokenBucketTable =>
      new TokenBucketTable({ capacity: perMinute, perSecond: perMinute / 60 }, config.rateMaxBuckets, clock);
    this.tables = { read: table(config.rateRead), write: table(config.rateWrite) };
  }

  perMinute(kind: RateKind): number {
    return kind === 'read' ? this.config.rateRead : this.config.rateWrite;
  }

  /** Spends one token of `client`'s `kind` bucket, or reports how long until one is there. */
  take(kind: RateKind, client: string): Take {
    return this.tables[kind].take(client);
  }

  /** Buckets currently remembered for `kind` (bounded by CHAT_RATE_MAX_BUCKETS). */
  size(kind: RateKind): number {
    return this.tables[kind].size;
  }
}
