import { AsyncLocalStorage } from 'node:async_hooks';
import { OtlpExporter } from './otlp-exporter';
import { AttributeValue, FinishedSpan, nowNanos, SpanKind } from './span';
import { newSpanId, newTraceId, parseTraceparent, TraceContext } from './trace-context';

type Attributes = Record<string, AttributeValue>;

/** A span timed by someone else: its name, its times (ns since the epoch) and attributes. */
export interface MeasuredSpan {
  readonly name: string;
  readonly start: bigint;
  readonly end: bigint;
  readonly attributes?: Attributes;
}

interface SpanStart {
  readonly context: TraceContext;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Attributes;
}

/** A span being timed. `end` may be called more than once: only the first call counts. */
export class ActiveSpan {
  private ended = false;
  private readonly startNanos = nowNanos();
  readonly context: TraceContext;
  readonly attributes: Attributes;

  constructor(
    private readonly recorder: SpanRecorder,
    private readonly start: SpanStart,
  ) {
    this.context = start.context;
    this.attributes = start.attributes;
  }

  end(error?: string): void {
    if (this.ended) return;
    this.ended = true;
    this.recorder.finished({
      traceId: this.context.traceId,
      spanId: this.context.spanId,
      parentSpanId: this.start.parentSpanId,
      name: this.start.name,
      kind: this.start.kind,
      startNanos: this.startNanos,
      endNanos: nowNanos(),
      attributes: this.attributes,
      error,
    });
  }
}

/**
 * Starts spans and hands finished ones to the exporter. The span a piece of work belongs to travels
 * with it in `current` (an AsyncLocalStorage the request hooks enter), so the log's wrapper finds its
 * parent without any argument on the write path. Only sampled traces make spans at all.
 */
export class SpanRecorder {
  readonly current = new AsyncLocalStorage<ActiveSpan>();

  constructor(
    private readonly exporter: OtlpExporter,
    /** Share of new traces recorded (a caller's traceparent decides for its own trace). */
    private readonly sample: number,
  ) {}

  /**
   * A request's span. A valid `traceparent` makes it a child of the caller's span in the caller's
   * trace, recorded when the caller sampled it (W3C Trace Context); otherwise a new trace, recorded
   * with probability `sample`. Undefined when the trace is not recorded.
   */
  startRequest(
    name: string,
    traceparent: string | string[] | undefined,
    attributes: Attributes,
  ): ActiveSpan | undefined {
    const caller = parseTraceparent(traceparent);
    const sampled = caller === undefined ? this.sample >= 1 || Math.random() < this.sample : caller.sampled;
    if (!sampled) return undefined;
    const context = { traceId: caller?.traceId ?? newTraceId(), spanId: newSpanId(), sampled: true };
    return new ActiveSpan(this, {
      context,
      parentSpanId: caller?.spanId,
      name,
      kind: SpanKind.server,
      attributes,
    });
  }

  startChild(parent: ActiveSpan, name: string, attributes: Attributes = {}): ActiveSpan {
    const context = { ...parent.context, spanId: newSpanId() };
    return new ActiveSpan(this, {
      context,
      parentSpanId: parent.context.spanId,
      name,
      kind: SpanKind.internal,
      attributes,
    });
  }

  /** A child span whose times were measured elsewhere (an fsync, an apply). */
  recordChild(parent: ActiveSpan, span: MeasuredSpan): void {
    this.finished({
      traceId: parent.context.traceId,
      spanId: newSpanId(),
      parentSpanId: parent.context.spanId,
      name: span.name,
      kind: SpanKind.internal,
      startNanos: span.start,
      endNanos: span.end,
      attributes: span.attributes ?? {},
      error: undefined,
    });
  }

  finished(span: FinishedSpan): void {
    this.exporter.add(span);
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }
}
