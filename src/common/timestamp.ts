/**
 * Record timestamps: `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC, exactly six fractional digits, §6.1).
 * Clock values are whole microseconds since the epoch, carried as numbers (exact below 2^53).
 */
export function formatTimestamp(micros: number): string {
  const second = Math.floor(micros / 1_000_000);
  // Every write formats its time, and most writes share their second with the one before: the date
  // part is built once per second (a Date and toISOString were ~2 % of a durable write's CPU).
  if (second !== lastSecond) {
    lastSecond = second;
    lastPrefix = new Date(second * 1000).toISOString().slice(0, 19); // 2026-09-24T10:11:12
  }
  const fraction = String(micros - second * 1_000_000).padStart(6, '0');
  return `${lastPrefix}.${fraction}Z`;
}

let lastSecond = Number.NaN;
let lastPrefix = '';

const MICRO_TS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{6}))?Z$/;

/** Milliseconds since the epoch of a stored ts, or null for a form the expiry check treats as expired. */
export function parseTimestampMs(ts: string): number | null {
  const m = MICRO_TS.exec(ts);
  if (!m) return null;
  const base = Date.parse(`${m[1]}Z`);
  if (Number.isNaN(base)) return null;
  return base + (m[2] ? Number(m[2]) / 1000 : 0);
}
