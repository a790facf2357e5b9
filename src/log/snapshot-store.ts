/**
 * Where shared snapshots of the read models live (issue 27): the nats backend keeps them in a
 * JetStream object store beside the stream (nats-snapshot-store.ts), `npm run snapshot` in a
 * directory (directory-snapshot-store.ts). The bytes are opaque here; their format (and its SHA-256)
 * is the projections layer's (src/projections/snapshot/snapshot-format.ts).
 */
export interface SnapshotEntry {
  /** The next log offset to apply after restoring it. */
  readonly offset: number;
  /** Store name (`<offset, 20 digits>.snap`). */
  readonly name: string;
  /** When it was stored (ms since the epoch). */
  readonly storedAt: number;
}

export interface SnapshotStore {
  /** Where it is, for log lines (`object store agent-chat-snapshots`, a directory). */
  readonly where: string;
  /** Every stored snapshot, newest (highest offset) first. */
  list(): Promise<SnapshotEntry[]>;
  /** Stores the bytes under the offset's name; a second put of one offset replaces the first. */
  put(offset: number, data: AsyncIterable<Uint8Array>): Promise<void>;
  /** The stored bytes, or null when it is gone. */
  get(name: string): Promise<AsyncIterable<Uint8Array> | null>;
  delete(name: string): Promise<void>;
}

const NAME = /^(\d{20})\.snap$/;

export function snapshotName(offset: number): string {
  return `${String(offset).padStart(20, '0')}.snap`;
}

/** The offset a snapshot name stands for, or null for another name. */
export function snapshotOffset(name: string): number | null {
  const m = NAME.exec(name);
  return m ? Number(m[1]) : null;
}

export function newestFirst(entries: SnapshotEntry[]): SnapshotEntry[] {
  return entries.sort((a, b) => b.offset - a.offset);
}
