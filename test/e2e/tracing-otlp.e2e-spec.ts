import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { deleteStream, NATS_URL, uniqueStreamName } from '../support/nats-stream';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status: { code: number };
}

/** A minimal OTLP/HTTP receiver (JSON encoding): keeps every span and resource it is sent. */
class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly resources: Record<string, unknown>[] = [];
  private readonly server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const ok =
        req.method === 'POST' &&
        req.url === '/v1/traces' &&
        req.headers['content-type'] === 'application/json';
      if (ok) {
        for (const rs of JSON.parse(body).resourceSpans) {
          this.resources.push(
            Object.fromEntries(
              rs.resource.attributes.map((a: ReceivedSpan['attributes'][0]) => [
                a.key,
                Object.values(a.value)[0],
              ]),
            ),
          );
          for (const ss of rs.scopeSpans) this.spans.push(...ss.spans);
        }
      }
      res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The spans of one trace once `count` of them arrived (the service exports about once a second). */
  async trace(traceId: string, count: number): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const spans = this.spans.filter((s) => s.traceId === traceId);
      if (spans.length >= count) return spans;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return this.spans.filter((s) => s.traceId === traceId);
  }
}

const hex = (length: number): string =>
  Array.from({ length }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');

/** Span names with their parent's name (the caller's span is `caller`), sorted: the trace's shape. */
function shape(spans: ReceivedSpan[], callerSpanId: string): string[] {
  const byId = new Map(spans.map((s) => [s.spanId, s.name]));
  return spans
    .map(
      (s) =>
        `${s.name} <- ${s.parentSpanId === callerSpanId ? 'caller' : (byId.get(s.parentSpanId ?? '') ?? 'none')}`,
    )
    .sort();
}

/**
 * OpenTelemetry traces (CHAT_OTLP_ENDPOINT), received by an OTLP/HTTP receiver this test runs: spans
 * for the request, its lane, the log append and its fsync (or the NATS publish), the apply and the
 * reply, in the caller's trace when it sends a W3C traceparent.
 */
describe('traces over OTLP/HTTP', () => {
  const receiver = new OtlpReceiver();
  const dir = makeTempDir('agent-chat-traces');
  const stream = uniqueStreamName('traces');
  let file: ServiceProcess;
  let nats: ServiceProcess;

  beforeAll(async () => {
    const endpoint = await receiver.listen();
    file = await ServiceProcess.start({ CHAT_ROOT: join(dir.path, 'file'), CHAT_OTLP_ENDPOINT: endpoint });
    nats = await ServiceProcess.start({
      CHAT_ROOT: join(dir.path, 'nats'),
      CHAT_OTLP_ENDPOINT: endpoint,
      CHAT_LOG_BACKEND: 'nats',
      CHAT_NATS_URL: NATS_URL,
      CHAT_NATS_STREAM: stream,
    });
  }, 240_000);

  afterAll(async () => {
    await file?.stop();
    await nats?.stop();
    await receiver.close();
    await deleteStream(stream);
    dir.remove();
  });

  it('a write on the file log: request, lane, log append, log fsync, apply, reply, in the caller’s trace', async () => {
    const traceId = hex(32);
    const caller = hex(16);
    const reply = await fetch(file.url('/r/traced/say/alice/hello'), {
      headers: { traceparent: `00-${traceId}-${caller}-01` },
    });
    expect(reply.status).toBe(200);
    const spans = await receiver.trace(traceId, 6);
    expect(shape(spans, caller)).toEqual([
      'GET /r/:room/say/:nick/* <- caller',
      'apply <- lane /r/:room/say/:nick/*',
      'lane /r/:room/say/:nick/* <- GET /r/:room/say/:nick/*',
      'log append <- lane /r/:room/say/:nick/*',
      'log fsync <- log append',
      'reply <- GET /r/:room/say/:nick/*',
    ]);
    const request = spans.find((s) => s.name.startsWith('GET '))!;
    const attributes = Object.fromEntries(request.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
    expect(attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/r/:room/say/:nick/*',
      'http.response.status_code': '200',
    });
    // Every child lies within its parent's time.
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    for (const span of spans) {
      const parent = byId.get(span.parentSpanId ?? '');
      if (parent === undefined) continue;
      expect(BigInt(span.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(parent.startTimeUnixNano));
      expect(BigInt(span.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(parent.endTimeUnixNano));
    }
    expect(receiver.resources[0]).toMatchObject({ 'service.name': 'agent-chat' });
  });

  it('a write on NATS: the publish instead of the append and fsync', async () => {
    const traceId = hex(32);
    const caller = hex(16);
    expect(
      (
        await fetch(nats.url('/r/traced/say/bob/hi'), {
          headers: { traceparent: `00-${traceId}-${caller}-01` },
        })
      ).status,
    ).toBe(200);
    expect(shape(await receiver.trace(traceId, 5), caller)).toEqual([
      'GET /r/:room/say/:nick/* <- caller',
      'apply <- lane /r/:room/say/:nick/*',
      'lane /r/:room/say/:nick/* <- GET /r/:room/say/:nick/*',
      'nats publish <- lane /r/:room/say/:nick/*',
      'reply <- GET /r/:room/say/:nick/*',
    ]);
  });

  it('honours the caller’s sampling decision, and starts its own trace without a valid traceparent', async () => {
    const unsampled = hex(32);
    await fetch(file.url('/r/traced?since=0'), { headers: { traceparent: `00-${unsampled}-${hex(16)}-00` } });
    const invalid = '0'.repeat(32);
    await fetch(file.url('/r/traced?since=0&format=json'), {
      headers: { traceparent: `00-${invalid}-${hex(16)}-01` },
    });
    const before = receiver.spans.length;
    await fetch(file.url('/rooms'));
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !receiver.spans.slice(before).some((s) => s.name === 'GET /rooms')) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const own = receiver.spans.find((s) => s.name === 'GET /rooms');
    expect(own?.parentSpanId).toBeUndefined();
    expect(receiver.spans.filter((s) => s.traceId === unsampled || s.traceId === invalid)).toEqual([]);
    // The read with the invalid traceparent was traced in a trace of its own.
    expect(receiver.spans.some((s) => s.name === 'GET /r/:room' && s.parentSpanId === undefined)).toBe(true);
  });
});
