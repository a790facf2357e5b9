import { PriorWrite } from './idempotent-write';

/** The applied keys of one kind (a KeyIndexProjection). */
export interface KeyIndex<E> {
  get(id: string, nowMicros: number): E | undefined;
}

interface Pending<E> {
  readonly entry: E;
  /** The write's ticket (EventWriter numbers writes in decision order). */
  readonly ticket: number;
  readonly done: Promise<void>;
  readonly finish: () => void;
}

/**
 * Keyed writes decided but not yet applied, beside a write model's PendingOverlay: the key index (a
 * projection) shows a write only once it is applied, and a retry that overtakes its first attempt
 * must find it here. Each entry resolves `done` when it leaves: applied (the index shows it now) or
 * refused by the log (the key is free again). Recorded, settled and discarded with the write
 * (EventWriter's PendingEffects, by ticket).
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

  record(id: string, entry: E, ticket: number): void {
    let finish = (): void => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.pending.get(id)?.finish();
    this.pending.set(id, { entry, ticket, done, finish });
  }

  /** The projections applied the write `ticket`. */
  settle(id: string, ticket: number): void {
    const entry = this.pending.get(id);
    if (entry === undefined || entry.ticket > ticket) return;
    this.pending.delete(id);
    entry.finish();
  }

  /** The write `ticket` was refused. */
  discard(id: string, ticket: number): void {
    const entry = this.pending.get(id);
    if (entry === undefined || entry.ticket !== ticket) return;
    this.pending.delete(id);
    entry.finish();
  }
}
