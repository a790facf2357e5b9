/** OTLP span kinds used here (opentelemetry-proto trace.proto: SPAN_KIND_INTERNAL 1, SERVER 2). */
export const SpanKind = { internal: 1, server: 2 } as const;

export type AttributeValue = string | number | boolean;

/** A finished span, as the exporter sends it. Times are nanoseconds since the Unix epoch. */
export interface FinishedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly kind: number;
  readonly startNanos: bigint;
  readonly endNanos: bigint;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  /** Set when the operation failed: the span's status is ERROR with this message. */
  readonly error: string | undefined;
}

/** Nanoseconds since the epoch on a monotonic clock anchored once (spans never run backwards). */
const ORIGIN_NANOS = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();
export const nowNanos = (): bigint => ORIGIN_NANOS + process.hrtime.bigint();
