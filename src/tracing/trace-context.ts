import { randomBytes } from 'node:crypto';

/** A W3C trace context: which trace a span belongs to, its parent span, and whether it is sampled. */
export interface TraceContext {
  /** 32 lowercase hex digits, never all zeros. */
  readonly traceId: string;
  /** 16 lowercase hex digits, never all zeros: the span this context names (the parent of new spans). */
  readonly spanId: string;
  readonly sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * Parses a `traceparent` header (W3C Trace Context, level 1). Unknown future versions are read by
 * their version-00 prefix as the specification asks; version ff, all-zero ids, upper-case hex or a
 * malformed value give undefined (the request then starts a trace of its own).
 */
export function parseTraceparent(header: string | string[] | undefined): TraceContext | undefined {
  if (typeof header !== 'string') return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

/** The `traceparent` value naming `context` (version 00). */
export function formatTraceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;
}

export const newTraceId = (): string => randomBytes(16).toString('hex');
export const newSpanId = (): string => randomBytes(8).toString('hex');
