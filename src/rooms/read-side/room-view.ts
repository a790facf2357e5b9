import { StoredRecord } from './stored-record';

/** A room read as the renderers get it (contract §7.2 fields, plus the long-poll outcome). */
export interface RoomView {
  readonly room: string;
  readonly records: readonly StoredRecord[];
  readonly firstSeq: number | null;
  /** Value to pass back as `since`; a bigint only when it echoes a huge cursor of an empty room. */
  readonly lastSeq: number;
  readonly generation: number;
  /** Set only on a long-poll that returned no messages: true = held and quiet, false = no slot. */
  readonly waitHeld?: boolean;
  /** The wait asked for, in seconds (used by the "not held" note). */
  readonly waitSeconds?: number;
  /** Why no long-poll slot was free (used by the "not held" note). */
  readonly waitCause?: string;
  /**
   * Set only on a `before=` page: the `before` of the next older page (its first seq), or null when
   * the ring holds nothing older. Ordinary reads leave it unset, so their bytes never change.
   */
  readonly nextBefore?: number | null;
}
