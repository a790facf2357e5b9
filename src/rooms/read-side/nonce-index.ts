import { FIXED_LIMITS } from '../../config/app-config';

interface SpentNonce {
  /** Integer digits as stored. */
  readonly nonce: string;
  /** Position of the record's first byte among the bytes appended this generation. */
  readonly start: number;
  readonly seq: number;
}

const PRUNE_ABOVE = 256;

/**
 * The last nonce each key spent in one room, for the stale-nonce rule (contract §8.6): only a record
 * inside the newest 1 MiB of the room counts, and a record compacted out of the ring no longer counts.
 * Kept up to date by the rooms projection on every signed append, so a write never scans the ring.
 */
export class NonceIndex {
  private readonly byDid = new Map<string, SpentNonce>();

  record(did: string, nonce: string, start: number, seq: number): void {
    this.byDid.delete(did);
    this.byDid.set(did, { nonce, start, seq });
    if (this.byDid.size > PRUNE_ABOVE) this.prune(start);
  }

  /** The last nonce `did` spent that still counts, given the room's appended bytes and oldest seq. */
  last(did: string, appended: number, firstSeq: number): bigint | null {
    const spent = this.byDid.get(did);
    if (spent === undefined || spent.seq < firstSeq) return null;
    return spent.start >= appended - FIXED_LIMITS.readWindowBytes ? BigInt(spent.nonce) : null;
  }

  toJSON(): Array<[string, SpentNonce]> {
    return [...this.byDid];
  }

  static from(entries: Array<[string, SpentNonce]>): NonceIndex {
    const index = new NonceIndex();
    for (const [did, spent] of entries) index.byDid.set(did, spent);
    return index;
  }

  /** Insertion order is recency order: drop entries from the oldest end while they are out of the window. */
  private prune(newestStart: number): void {
    for (const [did, spent] of this.byDid) {
      if (spent.start >= newestStart - FIXED_LIMITS.readWindowBytes) return;
      this.byDid.delete(did);
    }
  }
}
