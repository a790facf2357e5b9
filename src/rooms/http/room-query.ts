import { FIXED_LIMITS } from '../../config/app-config';
import { parseNonNegativeInt, parsePyFloat } from '../../common/py-compat/py-number';
import { Query } from '../../http/url/query-parser';

export interface RoomReadQuery {
  readonly since: bigint | null;
  readonly limit: number;
  /** Seconds, clamped to the ceiling; 0 = no wait (also when there is no cursor). */
  readonly wait: number;
  readonly json: boolean;
  /** `before=` as sent (a page of older messages; parsed after the room name, 400 if malformed). */
  readonly before: string | undefined;
}

/** `limit` as the reference reads it: a non-negative integer survives, else 50; clamped to 1..200. */
export function parseLimit(raw: string | undefined): number {
  const value = parseNonNegativeInt(raw);
  const limit = value === null ? FIXED_LIMITS.readDefaultLimit : Number(value > 200n ? 200n : value);
  return Math.min(FIXED_LIMITS.readMaxLimit, Math.max(1, limit));
}

/** `wait` like Python float(): ≤ 0, NaN or unparsable mean no wait; positive values clamp to the ceiling. */
export function parseWait(raw: string | undefined, maxWait: number): number {
  if (raw === undefined) return 0;
  const value = parsePyFloat(raw);
  if (value === null || Number.isNaN(value) || value <= 0) return 0;
  return Math.min(value, maxWait);
}

/** The read parameters are never refused (contract §7.1): invalid values fall back. */
export function parseRoomQuery(query: Query, maxWait: number): RoomReadQuery {
  const since = parseNonNegativeInt(query.since);
  return {
    since,
    limit: parseLimit(query.limit),
    wait: since === null ? 0 : parseWait(query.wait, maxWait),
    json: query.format === 'json',
    before: query.before,
  };
}
