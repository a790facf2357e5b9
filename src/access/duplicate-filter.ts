import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { duplicateKey } from './duplicate-key';
import { DuplicateTextError } from './duplicate-text.error';

/** A copy counted before its append; released when the append does not happen. */
export interface DuplicateReservation {
  release(): void;
}

const NOTHING_RESERVED: DuplicateReservation = { release: () => undefined };

/** How many of the oldest keys one reservation looks at to forget the ones wholly out of the window. */
const SWEEP_PER_RESERVE = 8;

/**
 * The duplicate filter (contract §8.5): per room, at most `dupeMaxCopies` copies of one normalised
 * text within `dupeFilterSeconds`; the sender is not part of the key, because the flood it exists for
 * is one sentence from many identities.
 *
 * Check and count are one synchronous step, so concurrent copies cannot both slip under the limit;
 * only accepted copies are remembered (a refusal never extends the window), and a reservation whose
 * append fails is handed back. Invariant: at most `dupeMaxKeys` keys across all rooms, in
 * least-recently-accepted order; keys wholly out of the window are dropped from the front as they
 * are met, and past the cap the oldest goes (evicting early costs a duplicate, the cheaper failure).
 */
@Injectable()
export class DuplicateFilter {
  /** key → accepted copies' times in seconds, oldest first. */
  private readonly copies = new Map<string, number[]>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  get size(): number {
    return this.copies.size;
  }

  /** Counts one copy of `text` in `room`, or throws the 422 when the room already has enough. */
  reserve(room: string, text: string): DuplicateReservation {
    const window = this.config.dupeFilterSeconds;
    const key = window > 0 ? duplicateKey(room, text, this.config.dupeMinLength) : null;
    if (key === null) return NOTHING_RESERVED;
    const now = this.clock.nowMicros() / 1e6;
    const live = (this.copies.get(key) ?? []).filter((at) => now - at <= window);
    if (live.length >= this.config.dupeMaxCopies) {
      this.copies.set(key, live.slice(-this.config.dupeMaxCopies)); // pruned, never extended
      throw new DuplicateTextError({ room, copies: live.length, windowSeconds: window, ref: this.ref(now) });
    }
    live.push(now);
    this.copies.delete(key);
    this.copies.set(key, live);
    this.forgetExpired(now, window);
    return { release: once(() => this.release(key, now)) };
  }

  private release(key: string, at: number): void {
    const live = this.copies.get(key);
    if (live === undefined) return; // swept or evicted: the same free slot, reached another way
    const index = live.lastIndexOf(at);
    if (index >= 0) live.splice(index, 1);
    if (live.length === 0) this.copies.delete(key);
  }

  private forgetExpired(now: number, window: number): void {
    let looked = 0;
    for (const [key, live] of this.copies) {
      if (looked++ >= SWEEP_PER_RESERVE || live.some((at) => now - at <= window)) break;
      this.copies.delete(key);
    }
    while (this.copies.size > this.config.dupeMaxKeys) {
      this.copies.delete(this.copies.keys().next().value as string);
    }
  }

  private ref(nowSeconds: number): string {
    return `422-${Math.floor(nowSeconds).toString(16)}-${randomBytes(2).toString('hex')}`;
  }
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}
