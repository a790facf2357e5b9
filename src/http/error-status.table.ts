import { ErrorCode } from '../common/domain-error';

/**
 * The one mapping from domain error codes to HTTP statuses. README's error table is checked against
 * this object by test/unit/http/error-status.table.spec.ts, so a new code cannot go undocumented.
 */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  bad_request: 400,
  forbidden: 403,
  route_not_found: 404,
  note_not_found: 404,
  room_not_found: 404,
  method_not_allowed: 405,
  body_timeout: 408,
  conflict: 409,
  body_too_large: 413,
  duplicate: 422,
  idempotency_key_reused: 422,
  idempotency_replay_gone: 410,
  rate_limited: 429,
  stream_limit: 429,
  headers_too_large: 431,
  log_conflict: 503,
  log_unavailable: 503,
  log_corrupted: 503,
  projection_failed: 503,
  storage_full: 507,
  stored_not_applied: 503,
  // Refusals made below the routes (Node's parser and timers, Fastify), issue 24 item 8:
  malformed_request: 400,
  request_timeout: 408,
  request_head_too_large: 431,
  unsupported_media_type: 415,
  expectation_failed: 417,
  shutting_down: 503,
};
