import { ChatEvent, ChatEventType } from './chat-event';

/**
 * One key per member of the event union: the compiler refuses this object when a type is added to
 * the union and not here, or listed here and not in the union, so the runtime list cannot drift.
 */
const EVERY_EVENT_TYPE: { readonly [T in ChatEventType]: true } = {
  'room.created': true,
  'message.appended': true,
  'room.reaped': true,
  'note.written': true,
  'note.reclaimed': true,
};

/** Every event type this build writes and reads (tools validate filters against it). */
export const EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(EVERY_EVENT_TYPE));

/** Unknown or malformed payloads: the log holds something this build cannot interpret. */
export class EventDecodeError extends Error {}

/** Events are stored as compact UTF-8 JSON; the log frames and checksums them. */
export function encodeEvent(event: ChatEvent): Buffer {
  return Buffer.from(JSON.stringify(event), 'utf8');
}

export function decodeEvent(payload: Buffer): ChatEvent {
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch (error) {
    throw new EventDecodeError(`event payload is not JSON: ${(error as Error).message}`);
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !EVENT_TYPES.has(type)) {
    throw new EventDecodeError(`unknown event type ${JSON.stringify(type)}`);
  }
  return value as ChatEvent;
}
