import { PriorWrite } from './idempotent-write';

/** The applied keys of one kind (a KeyIndexProjection). */
export interface KeyIndex<E> {
  get(id: string, nowMicros: number): E | undefined;
}

interface Pending<E> {
  readonly entry: E;
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
export class PendingKeys<E extends { readonly fp: string }> {
  private readonly pending = new Map<string, Pending<E>>();

  get(id: string): PriorWrite<E> | null {
    const entry = this.pending.get(id);
    if (entry === undefined) return null;
    return { entry: entry.entry, fingerprint: entry.entry.fp, pending: entry };
  }

  /** The write `id` names: pending here, else applied in `index` (its window still open), else null. */
  prior(id: string, index: KeyIndex<E>, nowMicros: number): PriorWrite<E> | null {
    const pending = this.get(id);
    if (pending !== null) return pending;
    const entry = index.get(id, nowMicros);
    return entry === undefined ? null : { entry, fingerprint: entry.fp, pending: null };
  }

  record(id: string, entry: E, offset: number): void {
    let finish = (): void => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.pending.get(id)?.finish();
    this.pending.set(id, { entry, offset, done, finish });
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
