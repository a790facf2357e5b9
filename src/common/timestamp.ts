/**
 * Record timestamps: `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC, exactly six fractional digits, §6.1).
 * Clock values are whole microseconds since the epoch, carried as numbers (exact below 2^53).
 */
export function formatTimestamp(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const iso = new Date(ms).toISOString(); // 2026-09-24T10:11:12.123Z
  const fraction = String(micros - Math.floor(micros / 1_000_000) * 1_000_000).padStart(6, '0');
  return `${iso.slice(0, 19)}.${fraction}Z`;
}

const MICRO_TS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{6}))?Z$/;

/** Milliseconds since the epoch of a stored ts, or null for a form the expiry check treats as expired. */
export function parseTimestampMs(ts: string): number | null {
  const m = MICRO_TS.exec(ts);
  if (!m) return null;
  const base = Date.parse(`${m[1]}Z`);
  if (Number.isNaN(base)) return null;
  return base + (m[2] ? Number(m[2]) / 1000 : 0);
}
