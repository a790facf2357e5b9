import { formatTraceparent, parseTraceparent } from '../../../src/tracing/trace-context';
import { encode } from '../../../src/tracing/otlp-exporter';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('W3C traceparent', () => {
  it('reads the trace, the parent span and the sampled flag, and writes them back', () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`)).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      sampled: true,
    });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.sampled).toBe(false);
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-03`)?.sampled).toBe(true); // other flags ignored
    expect(formatTraceparent({ traceId: TRACE, spanId: SPAN, sampled: true })).toBe(`00-${TRACE}-${SPAN}-01`);
  });

  it('reads a future version by its version-00 prefix, and refuses what the specification refuses', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-future-part`)?.traceId).toBe(TRACE);
    for (const bad of [
      `ff-${TRACE}-${SPAN}-01`, // version ff is invalid
      `00-${TRACE}-${SPAN}-01-extra`, // version 00 has exactly four parts
      `00-${'0'.repeat(32)}-${SPAN}-01`, // all-zero trace id
      `00-${TRACE}-${'0'.repeat(16)}-01`, // all-zero parent id
      `00-${TRACE.toUpperCase()}-${SPAN}-01`, // upper-case hex
      `00-${TRACE.slice(1)}-${SPAN}-01`,
      '',
    ]) {
      expect(parseTraceparent(bad)).toBeUndefined();
    }
    expect(parseTraceparent(undefined)).toBeUndefined();
    expect(parseTraceparent([`00-${TRACE}-${SPAN}-01`, `00-${TRACE}-${SPAN}-01`])).toBeUndefined();
  });
});

describe('OTLP/JSON encoding', () => {
  it('writes ids in hex, times and integers as decimal strings, and an error status', () => {
    const body = encode(
      [
        {
          traceId: TRACE,
          spanId: SPAN,
          parentSpanId: undefined,
          name: 'GET /rooms',
          kind: 2,
          startNanos: 1_700_000_000_000_000_001n,
          endNanos: 1_700_000_000_000_000_002n,
          attributes: { 'http.route': '/rooms', 'http.response.status_code': 503, ratio: 0.5, cached: true },
          error: 'HTTP 503',
        },
      ],
      { 'service.name': 'agent-chat' },
    );
    const span = body.resourceSpans[0].scopeSpans[0].spans[0];
    expect(span).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      name: 'GET /rooms',
      kind: 2,
      startTimeUnixNano: '1700000000000000001',
      endTimeUnixNano: '1700000000000000002',
      attributes: [
        { key: 'http.route', value: { stringValue: '/rooms' } },
        { key: 'http.response.status_code', value: { intValue: '503' } },
        { key: 'ratio', value: { doubleValue: 0.5 } },
        { key: 'cached', value: { boolValue: true } },
      ],
      status: { code: 2, message: 'HTTP 503' },
    });
    expect(body.resourceSpans[0].resource.attributes).toEqual([
      { key: 'service.name', value: { stringValue: 'agent-chat' } },
    ]);
  });
});
