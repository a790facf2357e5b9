import { parseTimestampMs } from '../../common/timestamp';

/**
 * One stored message as the read side keeps it: the exact JSON line (what JSON replies and export
 * emit, never re-serialised) plus the fields the text view and the read rules need.
 */
export interface StoredRecord {
  readonly seq: number;
  readonly ts: string;
  /** ms since the epoch, or null when `ts` is in no known form (the e- expiry check treats it as expired). */
  readonly tsMs: number | null;
  readonly from: string;
  readonly text: string;
  /** The stored line without its terminating newline. */
  readonly line: string;
  /** UTF-8 bytes the line occupies in the ring file, newline included. */
  readonly bytes: number;
}

/** The stored JSON line of an unsigned message or announcement, keys in the contract's order (§6.1). */
export function unsignedRecordLine(seq: number, ts: string, from: string, text: string): string {
  return `{"seq":${seq},"ts":${JSON.stringify(ts)},"from":${JSON.stringify(from)},"text":${JSON.stringify(text)}}`;
}

/** The stored line of a signed message (0.11.0+ layout): nonce as an unquoted integer, then sig. */
export function signedRecordLine(
  seq: number,
  ts: string,
  did: string,
  text: string,
  nonceDigits: string,
  sig: string,
): string {
  return (
    `{"seq":${seq},"ts":${JSON.stringify(ts)},"from":${JSON.stringify(did)},"text":${JSON.stringify(text)},` +
    `"nonce":${nonceDigits},"sig":${JSON.stringify(sig)}}`
  );
}

/** Parses a stored line; null for anything unparsable (every reader skips such lines, §6.1). */
export function parseRecordLine(line: string): StoredRecord | null {
  let value: { seq?: unknown; ts?: unknown; from?: unknown; text?: unknown };
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const { seq, ts, from, text } = value;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || typeof ts !== 'string') return null;
  return {
    seq,
    ts,
    tsMs: parseTimestampMs(ts),
    from: typeof from === 'string' ? from : String(from),
    text: typeof text === 'string' ? text : String(text),
    line,
    bytes: Buffer.byteLength(line, 'utf8') + 1,
  };
}

let lastLine: string | undefined;
let lastParsed: StoredRecord | null = null;

/**
 * parseRecordLine for the line of the event being applied: every projection that needs the parsed
 * record of a `message.appended` (the room tail, the nonce index, the listing window) asks in turn
 * for the same line, so the last answer is kept and the line is parsed once per event, not once per
 * projection. Equal text parses to an equal record, so a repeated line is answered correctly too.
 */
export function parseAppendedRecord(line: string): StoredRecord | null {
  if (line !== lastLine) {
    lastParsed = parseRecordLine(line);
    lastLine = line;
  }
  return lastParsed;
}

/** V8's fixed cost of a record held in memory: the object, its heap-number tsMs, four string headers. */
const RECORD_OVERHEAD_BYTES = 192;

/**
 * Estimated heap bytes a parsed record occupies: `text` is held beside the `line` it was parsed from,
 * so a record costs about twice its stored size. V8 keeps a string one byte per character when every
 * character fits Latin-1 and two otherwise; a line whose UTF-8 length equals its length is ASCII, any
 * other is charged two bytes per character (an upper bound). Memory budgets (the hot tails) count
 * this, not the ring bytes, so CHAT_HOT_TAIL_MB bounds what the process actually holds.
 */
export function recordFootprint(record: StoredRecord): number {
  const perChar = record.bytes - 1 === record.line.length ? 1 : 2;
  const chars = record.line.length + record.text.length + record.from.length + record.ts.length;
  return RECORD_OVERHEAD_BYTES + chars * perChar;
}
