import { DomainError } from '../common/domain-error';

/** Seconds a refused stream is told to wait: streams end when their clients leave, not on a clock. */
export const STREAM_RETRY_AFTER_SECONDS = 10;

/**
 * No event stream may open (issue 28): the client holds its share, or the process its total. A 429,
 * like the other budgets, with Retry-After; the body names the cap, the knob and the cheaper
 * alternatives (one stream over many rooms, or /watch).
 */
export class StreamLimitError extends DomainError {
  constructor(cause: string) {
    super(
      'stream_limit',
      `stream limit: ${cause}.\n` +
        `retry after: ${STREAM_RETRY_AFTER_SECONDS}s — a slot frees when a stream ends.\n` +
        'cheaper pattern: one stream carries up to the watch limit of rooms (GET /watch/sse?rooms=a,b,c), and ' +
        'GET /watch?rooms=… long-polls them without holding a stream.\n' +
        'the enforced numbers are published in /config as max_streams_total and max_streams_per_ip.',
      { 'retry-after': String(STREAM_RETRY_AFTER_SECONDS) },
    );
  }
}
