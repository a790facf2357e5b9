/**
 * Base of every error the domain raises. A DomainError knows nothing about HTTP: it carries a stable
 * code (mapped to a status in src/http/error-status.table.ts, the only place that does so), a message
 * that already names the correction, and optional headers the transport must add (Retry-After, Allow…).
 */
export type ErrorCode =
  | 'bad_request'
  | 'forbidden'
  | 'route_not_found'
  | 'note_not_found'
  | 'room_not_found'
  | 'method_not_allowed'
  | 'body_timeout'
  | 'conflict'
  | 'body_too_large'
  | 'duplicate'
  | 'idempotency_key_reused'
  | 'idempotency_replay_gone'
  | 'rate_limited'
  | 'stream_limit'
  | 'headers_too_large'
  | 'log_conflict'
  | 'log_unavailable'
  | 'log_corrupted'
  | 'projection_failed'
  | 'storage_full'
  | 'stored_not_applied'
  | 'malformed_request'
  | 'request_timeout'
  | 'request_head_too_large'
  | 'unsupported_media_type'
  | 'expectation_failed'
  | 'shutting_down';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The label metrics count this refusal under (src/http/refusal-tags.ts); the code unless refined. */
  get refusalKind(): string {
    return this.code;
  }
}
