import { formatCursors } from '../cursor/room-cursors';
import { Gap, Reset } from '../room-steps';
import { WatchView } from '../watch/watch-view';

export function resetJson(reset: Reset): string {
  return `{"room":${JSON.stringify(reset.room)},"generation":${reset.generation},"previous":${reset.previous}}`;
}

export function gapJson(gap: Gap): string {
  return `{"room":${JSON.stringify(gap.room)},"from":${gap.from},"to":${gap.to},"reason":"${gap.reason}"}`;
}

/** A message tagged with its room; the stored line is spliced in as it is (big nonces keep every digit). */
export function roomMessageJson(room: string, line: string): string {
  return `{"room":${JSON.stringify(room)},"message":${line}}`;
}

/**
 * Compact JSON of a /watch reply: `cursor` (pass it back as rooms=), `count`, `more`, `messages` (each
 * `{"room", "message"}`, the message exactly as stored), `resets`, `gaps`, and `wait_held` only on a
 * wait that returned nothing, as on a room read.
 */
export function renderWatchJson(view: WatchView): string {
  let messages = '';
  for (let i = 0; i < view.messages.length; i++) {
    const { room, record } = view.messages[i];
    messages += (i === 0 ? '' : ',') + roomMessageJson(room, record.line);
  }
  let json =
    `{"cursor":${JSON.stringify(formatCursors(view.positions))},"count":${view.messages.length},` +
    `"more":${view.more},"messages":[${messages}],"resets":[${view.resets.map(resetJson).join(',')}],` +
    `"gaps":[${view.gaps.map(gapJson).join(',')}]`;
  if (view.waitHeld !== undefined) json += `,"wait_held":${view.waitHeld}`;
  return `${json}}\n`;
}
