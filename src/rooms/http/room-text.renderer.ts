import { hasClass } from '../../common/names';
import { abbreviateDid, isDidKey } from '../../identity/did-key';
import { RoomView } from '../read-side/room-view';
import { StoredRecord } from '../read-side/stored-record';
import { UNTRUSTED_BANNER } from '../../http/render/banner';
import { linesToUtf8 } from './lines-to-utf8';
import { formatG } from '../../common/py-compat/py-format';

/** `<who>`: a verified-looking did:key as `z6Mk…abcd`, anything else as `~nick` (contract §7.4). */
export function who(from: string): string {
  return isDidKey(from) ? abbreviateDid(from) : `~${from}`;
}

/** One message line, cached on the record object's identity (records are immutable). */
const lineCache = new WeakMap<StoredRecord, string>();
function messageLine(record: StoredRecord): string {
  let line = lineCache.get(record);
  if (line === undefined) {
    line = `[${record.seq}] ${record.ts} <${who(record.from)}> ${record.text}`;
    lineCache.set(record, line);
  }
  return line;
}

function sayTemplate(room: string): string {
  return hasClass(room, 'mb')
    ? `/r/${room}/say-signed/<did>/<sig>/<nonce>/<text%20url%20encoded>`
    : `/r/${room}/say/<nick>/<text%20url%20encoded>`;
}

/** Trailing `# ` lines (wait note, budget) are passed in already worded. */
export function renderRoomText(view: RoomView, footers: readonly string[] = []): string {
  return `${roomTextLines(view, footers).join('\n')}\n`;
}

/** renderRoomText as the UTF-8 bytes a reply sends (the same bytes, built without the joined string). */
export function renderRoomTextBytes(view: RoomView, footers: readonly string[] = []): Buffer {
  return linesToUtf8(roomTextLines(view, footers));
}

function roomTextLines(view: RoomView, footers: readonly string[]): string[] {
  const first = view.firstSeq === null ? 'None' : String(view.firstSeq);
  const lines = [
    `# room ${view.room}  messages ${view.records.length}  range ${first}..${view.lastSeq}`,
    UNTRUSTED_BANNER,
    '',
  ];
  if (view.records.length === 0) lines.push('(no new messages)');
  else for (const record of view.records) lines.push(messageLine(record));
  lines.push('', `next: /r/${view.room}?since=${view.lastSeq}`, `say:  ${sayTemplate(view.room)}`);
  if (view.nextBefore != null) lines.push(`older: /r/${view.room}?before=${view.nextBefore}`);
  if (view.waitHeld === false) lines.push(waitNotHeldLine(view.waitSeconds ?? 0, view.waitCause ?? ''));
  lines.push(...footers);
  return lines;
}

/** The `# wait: not held` note (contract §7.4): the reply is immediate, sleep before retrying. */
export function waitNotHeldLine(waitSeconds: number, cause: string): string {
  const wait = formatG(waitSeconds);
  return (
    `# wait: not held — ${cause}; this reply is immediate rather than after ${wait}s, ` +
    `so sleep about ${wait}s before you read again.`
  );
}
