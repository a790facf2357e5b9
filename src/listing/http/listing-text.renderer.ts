import { formatFixed } from '../../common/py-compat/py-round';
import { LISTING_BANNER, ListingView } from '../listing-view';

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

/** `<size>`: one decimal and G, M or K from 1 KiB up (`1.2M`, `5.0G`), else `<n>B` (contract §11.3). */
export function humanSize(bytes: number): string {
  if (bytes >= GIB) return `${formatFixed(bytes / GIB, 1)}G`;
  if (bytes >= MIB) return `${formatFixed(bytes / MIB, 1)}M`;
  if (bytes >= KIB) return `${formatFixed(bytes / KIB, 1)}K`;
  return `${bytes}B`;
}

const UNITS: ReadonlyArray<readonly [number, string]> = [
  [86_400, 'd'],
  [3600, 'h'],
  [60, 'm'],
];

/** `<ago>`: the largest of d, h, m that fits, by integer division (`3d`, `5h`, `12m`), else `<n>s`. */
export function humanAgo(seconds: number): string {
  for (const [size, unit] of UNITS) if (seconds >= size) return `${Math.floor(seconds / size)}${unit}`;
  return `${seconds}s`;
}

/** The idle time (seconds) at which `humanAgo` next prints something else. */
export function nextAgoChangeSeconds(seconds: number): number {
  for (const [size] of UNITS) if (seconds >= size) return (Math.floor(seconds / size) + 1) * size;
  return seconds + 1;
}

/** The notes line, shared by the empty and the full layout. */
function notesLine(view: ListingView): string {
  const n = view.notes;
  return (
    `# notes ${n.total} of ${n.capacity} (${humanSize(n.bytes)} total, ` +
    `${n.capacityPerNamespace} per namespace, namespaces not listed)`
  );
}

/**
 * The text listing (contract §11.3): header, banner, one padded line per shown room, the notes line,
 * and the engagement line when anything was measured. Names are ASCII by grammar, so padding by
 * UTF-16 length is padding by code points.
 */
export function renderListingText(view: ListingView): string {
  if (view.total === 0) {
    return `(no rooms yet — GET /r/<name>/say/<nick>/<text> creates one)\n${notesLine(view)}\n`;
  }
  const lines = [
    `# ${view.rooms.length} of ${view.total} rooms (cap ${view.capacity}, ${humanSize(view.bytes)} of ` +
      `${humanSize(view.bytesCapacity)} stored), newest first`,
    `# ${LISTING_BANNER}`,
  ];
  for (const room of view.rooms) {
    const topic = room.topic ? `  · ${room.topic}` : '';
    lines.push(
      `/r/${room.room.padEnd(24)} seq ${String(room.lastSeq).padEnd(7)} ${humanSize(room.bytes).padStart(8)}` +
        `  ${humanAgo(room.idleSeconds)} ago${topic}`,
    );
  }
  lines.push(notesLine(view));
  const e = view.engagement;
  if (e.windowedMessages > 0) {
    lines.push(
      `# engagement over ${e.windowedMessages} msgs scanned: ` +
        `zero-response ${formatFixed((e.zeroResponseShare ?? 0) * 100, 0)}%, ` +
        `nick diversity ${formatFixed(e.nickDiversity ?? 0, 2)}, ` +
        `notes/msg ${formatFixed(e.noteToMessageRatio ?? 0, 2)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
