import { PriorWrite } from './idempotent-write';

interface Pending<E> {
  readonly entry: E;
  readonly fingerprint: string;
  readonly offset: number;
  readonly done: Promise<void>;
  readonly finish: () => void;
}

/**
 * Keyed writes appended but not yet applied, beside a write model's PendingOverlay: the key index (a
 * projection) shows a write only once it is applied, and a retry that overtakes its first attempt
 * must find it here. Each entry resolves `done` when it leaves: applied (the index shows it now) or
 * refused by the log (the key is free again). Recorded, settled and discarded with the append
 * (EventWriter's PendingEffects).
 */
export class PendingKeys<E> {
  private readonly pending = new Map<string, Pending<E>>();

  get(id: string): PriorWrite<E> | null {
    const entry = this.pending.get(id);
    if (entry === undefined) return null;
    return { entry: entry.entry, fingerprint: entry.fingerprint, pending: entry };
  }

  record(id: string, entry: E, fingerprint: string, offset: number): void {
    let finish = (): void => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.pending.get(id)?.finish();
    this.pending.set(id, { entry, fingerprint, offset, done, finish });
  }

  /** The projections applied everything up to `offset`. */
  settle(id: string, offset: number): void {
    const entry = this.pending.get(id);
    if (entry === undefined || entry.offset > offset) return;
    this.pending.delete(id);
    entry.finish();
  }

  /** The appends from `offset` on were refused. */
  discardFrom(offset: number): void {
    for (const [id, entry] of this.pending) {
      if (entry.offset < offset) continue;
      this.pending.delete(id);
      entry.finish();
    }
  }
}
