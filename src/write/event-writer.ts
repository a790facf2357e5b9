import { Inject, Injectable } from '@nestjs/common';
import { ChatEvent } from '../events/chat-event';
import { encodeEvent } from '../events/event-codec';
import { EventLog, LogScope } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { ProjectionRunner } from '../projections/projection-runner';
import { StoredNotAppliedError } from './stored-not-applied.error';

/** What a feature's write model does around one write (see PendingOverlay). */
export interface PendingEffects {
  /** The scope of each event in a shared log (src/write/log-scopes.ts), in the same order. */
  readonly scopes: readonly LogScope[];
  /** The write is decided: record its pending state, in the same synchronous step as the decision. */
  record(ticket: number): void;
  /** The write was refused (or its fate is unknown): forget what `record` left. */
  discard(ticket: number): void;
  /** The projections applied the write: the read model shows it now. */
  settle(ticket: number): void;
}

/**
 * The one write mechanism: record pending → append → await stored → await applied → settle.
 *
 * Callers decide synchronously and call `write` without awaiting anything in between, so the pending
 * state is recorded before any other decision runs, and the log learns what the decision read: every
 * record the projections applied (`readThrough`) and, through the records' scopes, which parts. Writes
 * are numbered (tickets) in decision order; the log assigns offsets only when it stores them. The
 * returned promise resolves once the events are stored and applied, so the caller's reply reads its
 * own write; a refused write rejects with the log's error after its pending state was discarded — in
 * the log's own step (`onFailed`), before any other decision could read it.
 */
@Injectable()
export class EventWriter {
  private tickets = 0;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly runner: ProjectionRunner,
  ) {}

  /** Appends `events` as one batch; resolves with the offset of the last one once it is applied. */
  async write(events: readonly ChatEvent[], effects: PendingEffects): Promise<number> {
    this.runner.assertAccepting();
    const ticket = ++this.tickets;
    effects.record(ticket);
    let next: number;
    try {
      ({ next } = await this.log.append(events.map(encodeEvent), {
        scopes: effects.scopes,
        readThrough: this.runner.nextOffset,
        onFailed: () => effects.discard(ticket),
      }));
    } catch (error) {
      effects.discard(ticket); // already done by onFailed; a no-op unless the log never called it
      throw error;
    }
    const last = next - 1;
    // The file log reports a batch to the projections before it settles the batch's appends, so this
    // is usually applied already: no second await (one microtask less on every write). A shared log
    // applies the write when its tail delivers it back; the pending state stays until then, even if
    // the caller stopped waiting, because the write is stored.
    if (!this.runner.isApplied(last)) {
      try {
        await this.runner.whenApplied(last);
      } catch (error) {
        // Stored but not applied: the answer must say the write is in the log (never "nothing stored").
        // The runner's one-line summary names the cause (its error tells a later writer "nothing stored").
        throw new StoredNotAppliedError(last, this.runner.failureSummary || (error as Error).message);
      }
    }
    effects.settle(ticket);
    return last;
  }
}
