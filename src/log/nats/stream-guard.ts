import { crc32 } from 'node:zlib';
import { StreamForkedError } from './nats-log.errors';
import { DEFAULT_FORK_CONFIRM_MS, ShortfallWindow } from './shortfall-window';

/** How many delivered records' checksums are kept to check an acknowledgement that raced the tail. */
const RECENT = 4096;

/** One record as this node applied it: where, on which subject, and a checksum of its payload. */
export interface AppliedRecord {
  readonly seq: number;
  readonly subject: string;
  readonly crc: number;
}

/** What the stream says now (stream info and one stored message), for a check. */
export interface StreamView {
  readonly firstSeq: number;
  readonly lastSeq: number;
  /**
   * The answer names no stream leader: a replica of a clustered stream answered from its own store
   * during an election. Such a view never confirms a shortfall (ShortfallWindow).
   */
  readonly leaderless?: boolean;
  /** The stored record at `seq`, or null when the stream holds none there. */
  record(seq: number): Promise<{ readonly subject: string; readonly data: Uint8Array } | null>;
}

export const checksum = (data: Uint8Array): number => crc32(data);

/**
 * What one check found: the stream holds what this node applied; it shows less (a shortfall not yet
 * confirmed by ShortfallWindow: check again before anything is applied or written); or a fork.
 */
export type CheckVerdict = 'consistent' | 'unconfirmed' | 'forked';

/**
 * Never fork (issue 26): this node's read models are the fold of the records it applied, so the
 * stream must still hold exactly those. The guard keeps the last applied record and the checksums of
 * the recent ones, and declares a fork — sticky until an operator acts and the node restarts — when
 * - the stream's last sequence is below the last record this node applied, or it holds no record
 *   there, for a whole confirmation window (ShortfallWindow: a replica answering while the stream
 *   has no leader may not have applied the newest committed records yet, and never confirms one) —
 *   the stream was rewound:
 *   a store restored from an older copy, a replica that missed writes elected leader;
 * - the stream's record at that sequence is not the one this node applied (rewound, then refilled:
 *   at once, only the stream leader answers for a record);
 * - NATS acknowledges one of this node's writes at a sequence where this node applied another record;
 * - a precondition fails with a last sequence below one this node knows for that scope.
 * The log then stops applying and refuses every write; /healthz and /readyz say why.
 */
export class StreamGuard {
  private last: AppliedRecord | undefined;
  /** Checksums of the last RECENT records applied, by sequence modulo RECENT (a ring, no allocation). */
  private readonly recentSeq = new Float64Array(RECENT);
  private readonly recentCrc = new Uint32Array(RECENT);
  private forked: StreamForkedError | undefined;
  private readonly shortfall: ShortfallWindow;

  constructor(
    private readonly stream: string,
    private readonly onFork: (error: StreamForkedError) => void,
    confirm: { readonly windowMs?: number; readonly now?: () => number } = {},
  ) {
    this.shortfall = new ShortfallWindow(confirm.windowMs ?? DEFAULT_FORK_CONFIRM_MS, confirm.now);
  }

  get fork(): StreamForkedError | undefined {
    return this.forked;
  }

  /** How long a shortfall must last to be a fork (CHAT_NATS_FORK_CONFIRM_MS). */
  get confirmWindowMs(): number {
    return this.shortfall.windowMs;
  }

  /** The last record applied (start-up: the stream's last record when the node opened it). */
  get reference(): AppliedRecord | undefined {
    return this.last;
  }

  /** The tail delivered (and the read models applied) this record. */
  applied(record: AppliedRecord): void {
    this.last = record;
    this.recentSeq[record.seq % RECENT] = record.seq;
    this.recentCrc[record.seq % RECENT] = record.crc;
  }

  /** Compares the stream with what this node applied; a failure to ask is no verdict. */
  async check(view: StreamView): Promise<CheckVerdict> {
    const last = this.last;
    if (this.forked) return 'forked';
    if (last === undefined) return 'consistent';
    if (view.lastSeq < last.seq) {
      return this.short(
        view,
        `its last sequence is ${view.lastSeq}, but this node applied records up to ${last.seq}`,
      );
    }
    if (last.seq < view.firstSeq) return this.held(); // trimmed below what this node applied: nothing to compare
    const stored = await view.record(last.seq);
    if (this.forked) return 'forked';
    if (this.last !== last) return 'consistent'; // moved on meanwhile: the next check compares anew
    if (stored === null)
      return this.short(view, `it no longer holds record ${last.seq}, which this node applied`);
    if (stored.subject !== last.subject || checksum(stored.data) !== last.crc) {
      this.declare(`its record ${last.seq} is not the one this node applied (${last.subject})`);
      return 'forked';
    }
    return this.held();
  }

  /**
   * NATS stored this node's messages at `firstSeq`… A sequence this node already applied must hold
   * that very message (the tail can deliver a write before its acknowledgement arrives).
   */
  acknowledged(firstSeq: number, payloads: readonly Buffer[]): void {
    const applied = this.last?.seq ?? 0;
    for (let i = 0; i < payloads.length && firstSeq + i <= applied; i++) {
      const seq = firstSeq + i;
      const known = this.recentSeq[seq % RECENT] === seq;
      if (!known || this.recentCrc[seq % RECENT] !== checksum(payloads[i])) {
        return this.declare(
          `it stored a write of this node at ${firstSeq + i}, where this node applied another record`,
        );
      }
    }
  }

  /**
   * The stream holds record `seq`, written on the precondition that `scope`'s last record was
   * `expected` (0 with `floor`: no record from `floor` on), where this node applied `actual` as that
   * scope's last record before it: the stream took two writes decided against the same state
   * (nats-server checks a clustered precondition when the leader proposes a write, not when it is
   * applied; a write proposed by a leader that died can be applied after one its successor took).
   * Folding both would fork what the nodes show.
   */
  unsound(scope: string, seq: number, expected: number, actual: number, floor?: number): void {
    const against =
      floor === undefined ? `record ${expected}` : `no record from ${floor} on (its writer's first sequence)`;
    this.declare(
      `its record ${seq} of ${scope} was written against ${against}, but that scope's last record ` +
        `before it is ${actual} (two writes decided against the same state)`,
    );
  }

  /** A precondition failed with `actual` as the scope's last sequence, below the `expected` this node knows. */
  regressed(scope: string, expected: number, actual: number): void {
    this.declare(`the last record of ${scope} is ${actual}, but this node applied or wrote ${expected}`);
  }

  /**
   * The tail skipped records: the stream was purged below the oldest kept snapshot
   * (CHAT_NATS_RETENTION=snapshot) while this node lagged further behind. Its read models cannot be
   * completed from the stream any more; restarted, it restores a snapshot.
   */
  missed(fromSeq: number, toSeq: number): void {
    this.declare(
      `records ${fromSeq}..${toSeq} were purged before this node received them (it lagged behind the ` +
        'oldest kept snapshot): restart it, it restores a snapshot',
    );
  }

  private held(): CheckVerdict {
    this.shortfall.clear();
    return 'consistent';
  }

  /**
   * The stream shows less than this node applied: a fork once it has for the whole window and a
   * stream leader says so (a leaderless replica's store may be behind the records committed).
   */
  private short(view: StreamView, what: string): CheckVerdict {
    const { confirmed, forMs } = this.shortfall.observe();
    if (!confirmed || view.leaderless) return 'unconfirmed';
    this.declare(
      this.shortfall.windowMs === 0 ? what : `${what} (still after ${(forMs / 1000).toFixed(1)} s)`,
    );
    return 'forked';
  }

  private declare(what: string): void {
    if (this.forked) return;
    this.forked = new StreamForkedError(this.stream, what);
    this.onFork(this.forked);
  }
}
