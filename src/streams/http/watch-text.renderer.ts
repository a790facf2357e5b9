import { UNTRUSTED_BANNER } from '../../http/render/banner';
import { linesToUtf8 } from '../../rooms/http/lines-to-utf8';
import { waitNotHeldLine, who } from '../../rooms/http/room-text.renderer';
import { formatCursors } from '../cursor/room-cursors';
import { Gap, Reset } from '../room-steps';
import { WatchView } from '../watch/watch-view';

/** `# reset` line: the room was reaped and created again since the cursor. */
export function resetLine(reset: Reset): string {
  return `# reset /r/${reset.room}: reaped and created again, generation ${reset.generation} (your cursor had ${reset.previous})`;
}

/** `# gap` line: messages the reader will never get, and why. */
export function gapLine(gap: Gap): string {
  const why =
    gap.reason === 'expired'
      ? 'expired (older than the e- room TTL)'
      : 'gone (the ring no longer holds them)';
  return `# gap /r/${gap.room}: ${gap.from}..${gap.to} ${why}`;
}

/**
 * The text of a /watch reply, laid out like a room read (contract §7.4) so the same eye and the same
 * parser read both: a `# watch` header, the untrusted-content banner, a blank line, then resets and
 * gaps as `# ` lines and one line per message, `[<room> <seq>] <ts> <who> <text>`; a blank line,
 * `next:` with the cursor to pass back, then the `# wait: not held` note and the budget footer.
 */
export function renderWatchTextBytes(view: WatchView, footers: readonly string[]): Buffer {
  const cursor = formatCursors(view.positions);
  const more = view.more ? '  more: read again at once' : '';
  const lines = [
    `# watch  rooms ${view.positions.length}  messages ${view.messages.length}${more}`,
    UNTRUSTED_BANNER,
    '',
  ];
  for (const reset of view.resets) lines.push(resetLine(reset));
  for (const gap of view.gaps) lines.push(gapLine(gap));
  if (view.messages.length === 0) lines.push('(no new messages)');
  for (const { room, record } of view.messages) {
    lines.push(`[${room} ${record.seq}] ${record.ts} <${who(record.from)}> ${record.text}`);
  }
  lines.push('', `next: /watch?rooms=${cursor}`);
  if (view.waitHeld === false) lines.push(waitNotHeldLine(view.waitSeconds ?? 0, view.waitCause ?? ''));
  lines.push(...footers);
  return linesToUtf8(lines);
}
