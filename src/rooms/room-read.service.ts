import { Inject, Injectable } from '@nestjs/common';
import { WaitSlots } from '../access/wait-slots';
import { AppConfig, FIXED_LIMITS } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { assertName, hasClass } from '../common/names';
import { ChangeNotifier } from '../projections/change-notifier';
import { parseSeqParam } from './cursor/seq-param';
import { RoomView } from './read-side/room-view';
import { RoomHistory } from './room-history';
import { selectRecords } from './room-selection';
import { RoomsProjection } from './rooms.projection';

export interface ReadRequest {
  readonly room: string;
  readonly since: bigint | null;
  readonly limit: number;
  /** Seconds to hold an empty read (already clamped; 0 = no wait). */
  readonly wait: number;
  /** Aborted when the client goes away. */
  readonly signal?: AbortSignal;
  /** The client identity a long-poll slot is charged to. */
  readonly client: string;
}

const MAX_SEQ = BigInt(Number.MAX_SAFE_INTEGER);

/** Room reads and long-polls, served from the rooms read model only (never the log, rarely the disk). */
@Injectable()
export class RoomReadService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rooms: RoomsProjection,
    private readonly notifier: ChangeNotifier,
    private readonly clock: Clock,
    private readonly slots: WaitSlots,
    private readonly history: RoomHistory,
  ) {}

  /**
   * The newest `limit` messages after `since`; holds an empty read up to `wait` seconds. A wait takes
   * a long-poll slot only when it would really park (contract §7.3); without one the empty view
   * answers at once with `waitHeld: false` and the cause. The slot is freed when the wait ends for
   * any reason, a disconnect included (the signal aborts the park).
   */
  async read(request: ReadRequest): Promise<RoomView> {
    assertName(request.room);
    const view = this.view(request.room, request.since, request.limit);
    if (request.wait <= 0 || request.since === null || view.records.length > 0) return view;
    const slot = this.slots.take(request.client);
    if (!slot.held) return { ...view, waitHeld: false, waitSeconds: request.wait, waitCause: slot.cause };
    try {
      return await this.park(request);
    } finally {
      slot.release();
    }
  }

  private async park(request: ReadRequest): Promise<RoomView> {
    const deadline = this.clock.nowMs() + request.wait * 1000;
    for (;;) {
      const remaining = deadline - this.clock.nowMs();
      if (remaining <= 0 || request.signal?.aborted) break;
      const changed = await this.notifier.waitForChange(request.room, remaining, request.signal);
      if (!changed) break;
      const next = this.view(request.room, request.since, request.limit);
      if (next.records.length > 0) return next;
    }
    return {
      ...this.view(request.room, request.since, request.limit),
      waitHeld: true,
      waitSeconds: request.wait,
    };
  }

  /** A read that does not wait: name check, then the view. */
  plain(room: string, since: bigint | null, limit: number): RoomView {
    assertName(room);
    return this.view(room, since, limit);
  }

  /**
   * A `before=` page (archivers walking back through the whole ring): the newest `limit` records with
   * seq below `before` (and above `since`, when given), oldest first, from anywhere in the retained
   * ring, not only the newest 1 MiB a plain read scans. `nextBefore` is the next older page's
   * `before`, null once the ring holds nothing older. A malformed `before` is a 400 (after the name).
   */
  page(room: string, beforeRaw: string, since: bigint | null, limit: number): RoomView {
    assertName(room);
    const before = parseSeqParam('before', beforeRaw);
    const after = since === null ? null : since > MAX_SEQ ? Number.MAX_SAFE_INTEGER : Number(since);
    const records = this.history.before(room, before, after, limit);
    const meta = this.rooms.meta(room);
    const first = records.length > 0 ? records[0].seq : null;
    const older = first !== null && meta !== undefined && first > meta.firstSeq && (after ?? 0) + 1 < first;
    return {
      room,
      records,
      firstSeq: first,
      lastSeq:
        records.length > 0
          ? records[records.length - 1].seq
          : Math.max(0, Math.min(before - 1, meta?.head ?? 0)),
      generation: meta?.generation ?? 0,
      nextBefore: older ? first : null,
    };
  }

  /** The view a write reply shows: the newest 20 messages, no cursor. */
  afterWrite(room: string): RoomView {
    return this.view(room, null, FIXED_LIMITS.writeReplyMessages);
  }

  view(room: string, since: bigint | null, limit: number): RoomView {
    const meta = this.rooms.meta(room);
    const expiredBeforeMs = hasClass(room, 'e')
      ? this.clock.nowMs() - this.config.ephemeralTtlSeconds * 1000
      : null;
    const records = selectRecords(this.rooms.tail(room), { since, limit, expiredBeforeMs });
    const head = meta?.head ?? 0;
    const lastSeq =
      records.length > 0
        ? records[records.length - 1].seq
        : since === null
          ? 0
          : Number(since < head ? since : head);
    return {
      room,
      records,
      firstSeq: records.length > 0 ? records[0].seq : null,
      lastSeq,
      generation: meta?.generation ?? 0,
    };
  }
}
