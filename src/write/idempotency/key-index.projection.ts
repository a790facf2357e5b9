import { AppConfig } from '../../config/app-config';
import { ChatEvent } from '../../events/chat-event';
import { Projection } from '../../projections/projection';
import { KeyedWrite, KeyWindow } from './key-window';

/** A keyed write as an index keeps it: its scoped id and what a retry is answered from. */
export interface IndexedKey<E> {
  readonly id: string;
  readonly entry: E;
}

/**
 * An index of idempotency keys folded from the log (issue 28): every event a feature recognises as a
 * keyed write of its own (`keyedWrite`) is remembered under its scoped id within the window and the
 * capacity (KeyWindow). A projection like any other: checkpointed, and rebuilt by replay, so a retry
 * is recognised on every node and after a restart. Events that carry no key cost one check.
 */
export abstract class KeyIndexProjection<E extends KeyedWrite> implements Projection {
  abstract readonly name: string;
  private readonly keys: KeyWindow<E>;

  constructor(config: Pick<AppConfig, 'idempotencyWindowSeconds' | 'idempotencyMaxKeys'>) {
    this.keys = new KeyWindow(config.idempotencyWindowSeconds, config.idempotencyMaxKeys);
  }

  /** The key this event records, or null for any event that is not a keyed write of this kind. */
  protected abstract keyedWrite(event: ChatEvent): IndexedKey<E> | null;

  apply(event: ChatEvent): void {
    const keyed = this.keyedWrite(event);
    if (keyed !== null) this.keys.put(keyed.id, keyed.entry);
  }

  /** The write `id` names while its window lasts at `nowMicros`. */
  get(id: string, nowMicros: number): E | undefined {
    return this.keys.get(id, nowMicros);
  }

  get size(): number {
    return this.keys.size;
  }

  snapshot(): { keys: Array<[string, E]> } {
    return { keys: this.keys.toRows() };
  }

  restore(state: unknown): void {
    this.keys.restore((state as { keys: Array<[string, E]> }).keys);
  }
}
