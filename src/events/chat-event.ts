import { NoteEvent } from './note-events';
import { RoomEvent } from './room-events';

export type { NoteEvent, NoteReclaimed, NoteWritten } from './note-events';
export type { MessageAppended, RoomCreated, RoomEvent, RoomReaped } from './room-events';

/**
 * Every accepted write becomes one or more of these past-tense events in the log; projections fold
 * them into read models. Events carry everything replay needs (timestamps included): replaying the
 * same log always yields the same rooms, rings and bytes.
 */
export type ChatEvent = RoomEvent | NoteEvent;
export type ChatEventType = ChatEvent['type'];

/** Events decoded from the log, with the position they came from. */
export interface PositionedEvent {
  readonly offset: number;
  readonly event: ChatEvent;
}
