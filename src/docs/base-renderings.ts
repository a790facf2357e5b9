import { TokenBucketTable } from '../access/token-bucket-table';
import { Clock } from '../common/clock';
import { LruMap } from '../common/lru-map';

/** Bases seen at least twice, kept while they keep being asked for. */
const PROTECTED_BASES = 16;
/** Bases seen once. */
const PROBATION_BASES = 16;
/** New bases rendered per second at most (burst the same); past it a new base gets relative links. */
const NEW_BASES_PER_SECOND = 16;

/** The renderings to use for a request, and the base URL they were made for. */
export interface BaseEntry<T> {
  readonly base: string;
  readonly renderings: T;
}

/**
 * Which base URLs keep their own document renderings (issue 18). Without CHAT_PUBLIC_URL the base
 * comes from the Host header, which a client can rotate per request; the cache used to be emptied
 * whenever a 33rd base arrived, so rotating hosts re-rendered (and re-compressed) every document for
 * everyone. Now, as a segmented LRU: a base seen twice is protected (16 kept), a base seen once is on
 * probation (16 kept, the oldest dropped first), so one-off hosts only ever displace each other.
 * Rendering for unseen bases is itself bounded to 16 per second; past it a request is served the
 * relative-link rendering (base '', which contract §15.2 uses for any Host it cannot echo), so a
 * rotating Host costs a cache lookup, not a render. With CHAT_PUBLIC_URL the base never varies.
 */
export class BaseRenderings<T> {
  private readonly protectedBases = new LruMap<string, T>({ maxEntries: PROTECTED_BASES });
  private readonly probation = new LruMap<string, T>({ maxEntries: PROBATION_BASES });
  private readonly admissions: TokenBucketTable;
  private readonly relative: T;

  constructor(
    clock: Clock,
    private readonly fresh: () => T,
  ) {
    this.relative = fresh();
    this.admissions = new TokenBucketTable(
      { capacity: NEW_BASES_PER_SECOND, perSecond: NEW_BASES_PER_SECOND },
      1,
      clock,
    );
  }

  of(base: string): BaseEntry<T> {
    if (base === '') return { base, renderings: this.relative };
    const kept = this.protectedBases.get(base);
    if (kept !== undefined) return { base, renderings: kept };
    const once = this.probation.peek(base);
    if (once !== undefined) {
      this.probation.delete(base);
      this.protectedBases.set(base, once);
      return { base, renderings: once };
    }
    if (!this.admissions.take('new-base').granted) return { base: '', renderings: this.relative };
    const renderings = this.fresh();
    this.probation.set(base, renderings);
    return { base, renderings };
  }
}
