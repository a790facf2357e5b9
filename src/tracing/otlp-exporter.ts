import { AttributeValue, FinishedSpan } from './span';

export interface OtlpExporterOptions {
  /** Base URL of an OTLP/HTTP receiver (a collector); spans go to `<endpoint>/v1/traces`. */
  readonly endpoint: string;
  /** Extra request headers (an API key for a hosted collector). */
  readonly headers: Readonly<Record<string, string>>;
  /** Resource attributes: service.name, service.version, service.instance.id. */
  readonly resource: Readonly<Record<string, AttributeValue>>;
  /** Milliseconds between exports while spans are waiting. */
  readonly intervalMs?: number;
  /** Spans kept while the receiver is slow or away; past it new spans are dropped (and counted). */
  readonly maxQueued?: number;
  readonly warn: (message: string) => void;
}

const BATCH = 512;

/**
 * Sends finished spans to an OTLP/HTTP receiver as JSON (`application/json`, the OTLP JSON encoding
 * every OpenTelemetry collector accepts), in batches, off the request path: `add` only queues. The
 * queue is bounded, so a receiver that is down costs memory up to `maxQueued` spans and then drops
 * spans, never requests; a failed export is dropped (tracing must not retry into an outage) and logged
 * once a minute.
 */
export class OtlpExporter {
  private queue: FinishedSpan[] = [];
  private readonly timer: NodeJS.Timeout;
  private exporting: Promise<void> = Promise.resolve();
  private dropped = 0;
  private lastWarning = 0;
  private readonly url: string;

  constructor(private readonly options: OtlpExporterOptions) {
    this.url = `${options.endpoint.replace(/\/+$/, '')}/v1/traces`;
    this.timer = setInterval(() => this.flush(), options.intervalMs ?? 1000);
    this.timer.unref();
  }

  add(span: FinishedSpan): void {
    if (this.queue.length >= (this.options.maxQueued ?? 8192)) {
      this.dropped++;
      return;
    }
    this.queue.push(span);
    if (this.queue.length >= BATCH) this.flush();
  }

  /** Sends everything queued; resolves when the exports in flight are done. */
  flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      this.exporting = this.exporting.then(() => this.send(batch));
    }
    return this.exporting;
  }

  async shutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async send(spans: readonly FinishedSpan[]): Promise<void> {
    try {
      const reply = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.options.headers },
        body: JSON.stringify(encode(spans, this.options.resource)),
        signal: AbortSignal.timeout(10_000),
      });
      await reply.arrayBuffer();
      if (!reply.ok) this.warn(`OTLP receiver answered ${reply.status}`, spans.length);
    } catch (error) {
      this.warn(error instanceof Error ? error.message : String(error), spans.length);
    }
  }

  private warn(reason: string, lost: number): void {
    this.dropped += lost;
    if (Date.now() - this.lastWarning < 60_000) return;
    this.lastWarning = Date.now();
    this.options.warn(`trace export to ${this.url} failed (${reason}); ${this.dropped} spans dropped so far`);
  }
}

/** OTLP/JSON (opentelemetry-proto, ExportTraceServiceRequest): ids in hex, times as decimal strings. */
export function encode(spans: readonly FinishedSpan[], resource: Readonly<Record<string, AttributeValue>>) {
  return {
    resourceSpans: [
      {
        resource: { attributes: attributes(resource) },
        scopeSpans: [
          {
            scope: { name: 'agent-chat' },
            spans: spans.map((span) => ({
              traceId: span.traceId,
              spanId: span.spanId,
              ...(span.parentSpanId === undefined ? {} : { parentSpanId: span.parentSpanId }),
              name: span.name,
              kind: span.kind,
              startTimeUnixNano: span.startNanos.toString(),
              endTimeUnixNano: span.endNanos.toString(),
              attributes: attributes(span.attributes),
              status: span.error === undefined ? { code: 0 } : { code: 2, message: span.error },
            })),
          },
        ],
      },
    ],
  };
}

function attributes(values: Readonly<Record<string, AttributeValue>>) {
  return Object.entries(values).map(([key, value]) => ({
    key,
    value:
      typeof value === 'string'
        ? { stringValue: value }
        : typeof value === 'boolean'
          ? { boolValue: value }
          : Number.isInteger(value)
            ? { intValue: String(value) }
            : { doubleValue: value },
  }));
}
