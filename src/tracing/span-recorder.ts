import { AsyncLocalStorage } from 'node:async_hooks';
import { OtlpExporter } from './otlp-exporter';
import { AttributeValue, FinishedSpan, nowNanos, SpanKind } from './span';
import { newSpanId, newTraceId, parseTraceparent, TraceContext } from './trace-context';

type Attributes = Record<string, AttributeValue>;

/** A span being timed. `end` may be called more than once: only the first call counts. */
export class ActiveSpan {
  private ended = false;

  constructor(
    private readonly recorder: SpanRecorder,
    readonly context: TraceContext,
    private readonly parentSpanId: string | undefined,
    private readonly name: string,
    private readonly kind: number,
    readonly attributes: Attributes,
    private readonly startNanos: bigint = nowNanos(),
  ) {}

  end(error?: string): void {
    if (this.ended) return;
    this.ended = true;
    this.recorder.finished({
      traceId: this.context.traceId,
      spanId: this.context.spanId,
      parentSpanId: this.parentSpanId,
      name: this.name,
      kind: this.kind,
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
    return new ActiveSpan(this, context, caller?.spanId, name, SpanKind.server, attributes);
  }

  startChild(parent: ActiveSpan, name: string, attributes: Attributes = {}): ActiveSpan {
    const context = { ...parent.context, spanId: newSpanId() };
    return new ActiveSpan(this, context, parent.context.spanId, name, SpanKind.internal, attributes);
  }

  /** A child span whose times were measured elsewhere (an fsync, an apply). */
  recordChild(
    parent: ActiveSpan,
    name: string,
    times: { start: bigint; end: bigint },
    attributes: Attributes = {},
  ): void {
    this.finished({
      traceId: parent.context.traceId,
      spanId: newSpanId(),
      parentSpanId: parent.context.spanId,
      name,
      kind: SpanKind.internal,
      startNanos: times.start,
      endNanos: times.end,
      attributes,
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
