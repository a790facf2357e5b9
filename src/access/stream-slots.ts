import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { StreamLimitError } from './stream-limit.error';

/** A held stream slot; release it exactly once, when the stream ends for any reason. */
export interface StreamSlot {
  release(): void;
}

/**
 * Event-stream slots (issue 28): an open stream holds a connection for as long as its client likes,
 * which no request budget bounds, so streams are capped per client and per process
 * (CHAT_MAX_STREAMS_PER_IP, CHAT_MAX_STREAMS_TOTAL), separately from the long-poll slots. Past a cap a
 * new stream is refused with 429 (a stream cannot degrade to an immediate reply as a long-poll does).
 *
 * Invariant: `inUse` equals the sum of the per-client counts, and a client with no open stream has no
 * entry, so the table never holds more than `maxStreamsTotal` clients.
 */
@Injectable()
export class StreamSlots {
  private total = 0;
  private readonly byClient = new Map<string, number>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  take(client: string): StreamSlot {
    const mine = this.byClient.get(client) ?? 0;
    if (mine >= this.config.maxStreamsPerIp) {
      throw new StreamLimitError(
        `you hold all ${this.config.maxStreamsPerIp} event streams one client may have`,
      );
    }
    if (this.total >= this.config.maxStreamsTotal) {
      throw new StreamLimitError(
        `all ${this.config.maxStreamsTotal} event streams of this instance are open`,
      );
    }
    this.total += 1;
    this.byClient.set(client, mine + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total -= 1;
        const left = (this.byClient.get(client) ?? 1) - 1;
        if (left > 0) this.byClient.set(client, left);
        else this.byClient.delete(client);
      },
    };
  }

  /** Streams open right now, all clients. */
  get inUse(): number {
    return this.total;
  }
}
