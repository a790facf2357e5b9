import { RoomView } from '../read-side/room-view';

/**
 * Compact JSON of a room view, keys in the contract's order (§7.5). Messages are the stored lines
 * spliced in as they are: nothing is parsed or re-serialised, so big nonces keep every digit.
 */
export function renderRoomJson(view: RoomView, posted?: string): string {
  let messages = '';
  for (let i = 0; i < view.records.length; i++) messages += (i === 0 ? '' : ',') + view.records[i].line;
  let json =
    `{"room":${JSON.stringify(view.room)},"count":${view.records.length},` +
    `"first_seq":${view.firstSeq === null ? 'null' : view.firstSeq},"last_seq":${view.lastSeq},` +
    `"generation":${view.generation},"messages":[${messages}]`;
  if (view.waitHeld !== undefined) json += `,"wait_held":${view.waitHeld}`;
  if (view.nextBefore !== undefined) json += `,"next_before":${view.nextBefore}`;
  if (posted !== undefined) json += `,"posted":${posted}`;
  return `${json}}\n`;
}
