import { Inject, Injectable } from '@nestjs/common';
import { WaitSlots } from '../../access/wait-slots';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { Clock } from '../../common/clock';
import { ChangeNotifier } from '../../projections/change-notifier';
import { Position, RoomCursor } from '../cursor/room-cursors';
import { Gap, Reset, RoomStep, RoomSteps } from '../room-steps';
import { hasNews, RoomMessage, WatchView } from './watch-view';

export interface WatchRequest {
  readonly cursors: readonly RoomCursor[];
  /** Messages in the whole reply (already clamped), shared fairly between the rooms. */
  readonly limit: number;
  /** Seconds to hold a reply with nothing to tell (already clamped; 0 = answer at once). */
  readonly wait: number;
  readonly signal?: AbortSignal;
  /** The client identity the long-poll slot is charged to. */
  readonly client: string;
}

/** Line bytes one room may contribute to a reply (one message always fits). */
const ROOM_BYTES = 1024 * 1024;

/**
 * GET /watch: one long-poll over many rooms, each with its own cursor. The whole request costs what
 * one room's long-poll costs: one read token (the route's guard) and, only when it parks, one wait
 * slot (the same pool and fair share as /r/{room}?wait=); a single waiter sits in every room's set and
 * any of them wakes it. Messages are read forward from each cursor (RoomSteps: every message the ring
 * still holds, resets and gaps told explicitly), at most `limit` in all, taken from the rooms in turn
 * so one busy room cannot starve the others; `more` says when to read again at once.
 */
@Injectable()
export class WatchService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly steps: RoomSteps,
    private readonly notifier: ChangeNotifier,
    private readonly slots: WaitSlots,
    private readonly clock: Clock,
  ) {}

  async watch(request: WatchRequest): Promise<WatchView> {
    const positions = request.cursors.map((cursor) => this.steps.start(cursor));
    const first = this.collect(positions, request.limit);
    if (hasNews(first) || request.wait <= 0) return first;
    const slot = this.slots.take(request.client);
    if (!slot.held) return { ...first, waitHeld: false, waitSeconds: request.wait, waitCause: slot.cause };
    try {
      const rooms = positions.map((p) => p.room);
      const deadline = this.clock.nowMs() + request.wait * 1000;
      for (;;) {
        const remaining = deadline - this.clock.nowMs();
        if (remaining <= 0 || request.signal?.aborted) break;
        if (!(await this.notifier.waitForAny(rooms, remaining, request.signal))) break;
        const next = this.collect(positions, request.limit);
        if (hasNews(next)) return next;
      }
    } finally {
      slot.release();
    }
    return { ...this.collect(positions, request.limit), waitHeld: true, waitSeconds: request.wait };
  }

  /** Reads every room from its position and keeps at most `limit` messages, one room at a time in turn. */
  private collect(positions: readonly Position[], limit: number): WatchView {
    const steps = positions.map((p) => this.steps.step(p, { maxRecords: limit, maxBytes: ROOM_BYTES }));
    const taken = fairShares(
      steps.map((step) => step.records.length),
      limit,
    );
    const messages: RoomMessage[] = [];
    const resets: Reset[] = [];
    const gaps: Gap[] = [];
    let more = false;
    const after = steps.map((step, i): Position => {
      if (step.reset) resets.push(step.reset);
      if (step.gap) gaps.push(step.gap);
      const records = step.records.slice(0, taken[i]);
      for (const record of records) messages.push({ room: step.next.room, record });
      more ||= step.more || records.length < step.records.length;
      return records.length === step.records.length ? step.next : cutShort(step, records.length);
    });
    return { messages, resets, gaps, positions: after, more };
  }
}

/** How many of each room's available messages to take: one per room per turn until `limit` or none left. */
function fairShares(available: readonly number[], limit: number): number[] {
  const taken = available.map(() => 0);
  for (let total = 0, progressed = true; total < limit && progressed;) {
    progressed = false;
    for (let i = 0; i < available.length && total < limit; i++) {
      if (taken[i] < available[i]) {
        taken[i]++;
        total++;
        progressed = true;
      }
    }
  }
  return taken;
}

/** The position after the first `count` records of a step (its gap, if any, is told in this reply). */
function cutShort(step: RoomStep, count: number): Position {
  const seq = count > 0 ? step.records[count - 1].seq : step.records[0].seq - 1;
  return { ...step.next, seq };
}
