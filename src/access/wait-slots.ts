import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';

/** A held long-poll slot; release it exactly when the wait ends (answered, timed out or abandoned). */
export interface HeldSlot {
  readonly held: true;
  release(): void;
}

/** No slot: the read answers at once, and the caller is told why (contract §7.3, §7.4). */
export interface RefusedSlot {
  readonly held: false;
  readonly cause: string;
}

/**
 * Long-poll slots (contract §7.3, §13.5): a parked `?wait=` holds a connection, which the request
 * budgets do not bound, so parked waits are capped per client and per process. Without a slot a
 * read degrades to an immediate reply; it is never an error.
 *
 * Fair share (issue 18): half the pool is kept for clients' first wait. A client that already holds a
 * slot gets another only while fewer than half the slots are parked, so a few clients at their
 * per-client cap (16 × 4 took all 64 before) can fill at most half the pool, and every newcomer still
 * finds a slot until as many distinct clients as half the pool each hold one.
 *
 * Invariant: `inUse` equals the sum of the per-client counts, and a client with no parked wait has no
 * entry, so the table never holds more than `maxWaitersTotal` clients.
 */
@Injectable()
export class WaitSlots {
  private total = 0;
  private readonly byClient = new Map<string, number>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  take(client: string): HeldSlot | RefusedSlot {
    const mine = this.byClient.get(client) ?? 0;
    if (mine >= this.config.maxWaitersPerIp) {
      return { held: false, cause: `you hold all ${this.config.maxWaitersPerIp} slots one caller may have` };
    }
    if (this.total >= this.config.maxWaitersTotal) {
      return { held: false, cause: `all ${this.config.maxWaitersTotal} on this instance are busy` };
    }
    if (mine > 0 && this.total * 2 >= this.config.maxWaitersTotal) {
      return {
        held: false,
        cause: `half of the ${this.config.maxWaitersTotal} on this instance are busy, and the other half is kept for callers holding none`,
      };
    }
    this.total += 1;
    this.byClient.set(client, mine + 1);
    let released = false;
    return {
      held: true,
      release: () => {
        if (released) return;
        released = true;
        this.giveBack(client);
      },
    };
  }

  /** Slots parked right now, all clients. */
  get inUse(): number {
    return this.total;
  }

  /** Clients with at least one parked wait. */
  get clients(): number {
    return this.byClient.size;
  }

  private giveBack(client: string): void {
    this.total -= 1;
    const left = (this.byClient.get(client) ?? 1) - 1;
    if (left > 0) this.byClient.set(client, left);
    else this.byClient.delete(client);
  }
}
