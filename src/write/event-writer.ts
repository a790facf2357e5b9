import { Inject, Injectable } from '@nestjs/common';
import { ChatEvent } from '../events/chat-event';
import { encodeEvent } from '../events/event-codec';
import { EventLog } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { ProjectionRunner } from '../projections/projection-runner';

/** What a feature's write model does around one append (see PendingOverlay). */
export interface PendingEffects {
  /** Right after the append was issued, in the same synchronous step as the decision. */
  record(lastOffset: number): void;
  /** The append was refused: forget everything recorded from `firstOffset` on. */
  discardFrom(firstOffset: number): void;
  /** The projections applied up to `lastOffset`: the read model shows it now. */
  settle(lastOffset: number): void;
}

/**
 * The one write mechanism: append → record pending → await durable → await applied → settle.
 *
 * Callers decide synchronously and call `write` without awaiting anything in between, so the log's
 * order is the order of decisions and the pending state is recorded before any other decision runs.
 * The returned promise resolves once the events are durable and applied, so the caller's reply reads
 * its own write; it rejects with the log's error (503 mapping) after discarding the pending state.
 */
@Injectable()
export class EventWriter {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly runner: ProjectionRunner,
  ) {}

  /** Appends `events` as one batch; resolves with the offset of the last one once it is applied. */
  async write(events: readonly ChatEvent[], effects: PendingEffects): Promise<number> {
    this.runner.assertAccepting();
    const first = this.log.head();
    const last = first + events.length - 1;
    const appended = this.log.append(events.map(encodeEvent));
    effects.record(last);
    try {
      await appended;
    } catch (error) {
      effects.discardFrom(first);
      throw error;
    }
    // The log reports a batch to the projections before it settles the batch's appends, so this is
    // usually applied already: no second await (one microtask less on every write).
    if (!this.runner.isApplied(last)) await this.runner.whenApplied(last);
    effects.settle(last);
    return last;
  }
}
