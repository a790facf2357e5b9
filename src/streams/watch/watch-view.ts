import { StoredRecord } from '../../rooms/read-side/stored-record';
import { Position } from '../cursor/room-cursors';
import { Gap, Reset } from '../room-steps';

/** One message of a multi-room reply, tagged with its room. */
export interface RoomMessage {
  readonly room: string;
  readonly record: StoredRecord;
}

/** A /watch reply as the renderers get it. */
export interface WatchView {
  /** Oldest first within a room; rooms in the order the request listed them. */
  readonly messages: readonly RoomMessage[];
  readonly resets: readonly Reset[];
  readonly gaps: readonly Gap[];
  /** Where the reader stands after this reply, one entry per requested room, in request order. */
  readonly positions: readonly Position[];
  /** More messages wait after these positions: read again at once. */
  readonly more: boolean;
  /** Set only on a wait that returned nothing: true = held and quiet, false = no long-poll slot. */
  readonly waitHeld?: boolean;
  readonly waitSeconds?: number;
  readonly waitCause?: string;
}

/** Whether a reply has anything to tell (then a wait ends at once). */
export function hasNews(view: WatchView): boolean {
  return view.messages.length > 0 || view.resets.length > 0 || view.gaps.length > 0;
}
