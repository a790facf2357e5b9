import { ChatEvent } from './chat-event';

/** Every event type this build writes and reads (tools validate filters against it). */
export const EVENT_TYPES: ReadonlySet<string> = new Set([
  'room.created',
  'message.appended',
  'room.reaped',
  'note.written',
  'note.reclaimed',
]);

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
