import { AppConfig } from '../config/app-config';
import { BODY_CAP_BYTES } from '../http/body/body-reader';
import { reservedRooms } from './room-creation-budget';

/**
 * The abuse limits this process enforces, under the names /config publishes them (contract §15.4,
 * `settings`), so the documents can never state numbers the guards do not apply.
 */
export interface EnforcedLimits {
  readonly rate_read: number;
  readonly rate_write: number;
  readonly rate_rooms_per_day: number;
  readonly max_wait: number;
  readonly max_waiters_total: number;
  readonly max_waiters_per_ip: number;
  readonly watch_max_rooms: number;
  readonly max_streams_total: number;
  readonly max_streams_per_ip: number;
  readonly stream_buffer_kb: number;
  readonly dupe_filter_seconds: number;
  readonly dupe_min_length: number;
  readonly dupe_max_copies: number;
  readonly max_rooms: number;
  /** Percent of the room cap kept for networks holding no room (issue 24). */
  readonly rooms_reserve_percent: number;
  /** The same reserve in rooms. */
  readonly rooms_reserved: number;
  readonly body_max_bytes: number;
  readonly body_deadline_seconds: number;
  readonly max_headers: number;
  readonly max_header_bytes: number;
  /** Seconds a reply may wait unread before the connection is reset (issue 24). */
  readonly send_deadline_seconds: number;
  /** Requests one connection may have awaiting replies (issue 24). */
  readonly max_pipelined: number;
}

export function enforcedLimits(config: AppConfig): EnforcedLimits {
  return {
    rate_read: config.rateRead,
    rate_write: config.rateWrite,
    rate_rooms_per_day: config.rateRoomsPerDay,
    max_wait: config.maxWait,
    max_waiters_total: config.maxWaitersTotal,
    max_waiters_per_ip: config.maxWaitersPerIp,
    watch_max_rooms: config.watchMaxRooms,
    max_streams_total: config.maxStreamsTotal,
    max_streams_per_ip: config.maxStreamsPerIp,
    stream_buffer_kb: config.streamBufferKb,
    dupe_filter_seconds: config.dupeFilterSeconds,
    dupe_min_length: config.dupeMinLength,
    dupe_max_copies: config.dupeMaxCopies,
    max_rooms: config.maxRooms,
    rooms_reserve_percent: config.roomsReservePercent,
    rooms_reserved: reservedRooms(config),
    body_max_bytes: BODY_CAP_BYTES,
    body_deadline_seconds: config.bodyDeadlineSeconds,
    max_headers: config.maxHeaders,
    max_header_bytes: config.maxHeaderBytes,
    send_deadline_seconds: config.sendDeadlineSeconds,
    max_pipelined: config.maxPipelined,
  };
}
