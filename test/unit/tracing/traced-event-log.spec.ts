import { AppendResult, CommitListener, EventLog, LogRecord } from '../../../src/log/event-log';
import { OtlpExporter } from '../../../src/tracing/otlp-exporter';
import { FinishedSpan } from '../../../src/tracing/span';
import { SpanRecorder } from '../../../src/tracing/span-recorder';
import { TracedLog } from '../../../src/tracing/traced-event-log';

/** A log whose commits the test delivers by hand, in the batches it chooses (as the NATS tail may). */
function handDeliveredLog(): { log: EventLog; deliver(offsets: number[]): void; refuseNext(): void } {
  let head = 0;
  let refuse = false;
  const listeners: CommitListener[] = [];
  const log = {
    head: () => head,
    append: async (payloads: readonly Buffer[]): Promise<AppendResult> => {
      if (refuse) {
        refuse = false;
        throw new Error('expected head mismatch');
      }
      const first = head;
      head += payloads.length;
      return { first, next: head };
    },
    subscribe: (listener: CommitListener) => {
      listeners.push(listener);
      return () => undefined;
    },
  } as unknown as EventLog;
  const deliver = (offsets: number[]): void => {
    const records: LogRecord[] = offsets.map((offset) => ({ offset, payload: Buffer.alloc(0) }));
    for (const listener of listeners) listener(records);
  };
  return { log, deliver, refuseNext: () => (refuse = true) };
}

describe('the traced log', () => {
  const spans: FinishedSpan[] = [];
  const recorder = new SpanRecorder(
    { add: (span: FinishedSpan) => spans.push(span) } as unknown as OtlpExporter,
    1,
  );
  const traced = new TracedLog(recorder);
  const request = recorder.startRequest('GET /r/:room/say/:nick/*', undefined, {})!;
  const lane = recorder.startChild(request, 'lane');
  const three = [Buffer.from('a'), Buffer.from('b'), Buffer.from('c')];

  beforeEach(() => spans.splice(0));

  it('gives an append one apply span even when its records are applied in two batches', async () => {
    const { log, deliver } = handDeliveredLog();
    const wrapped = traced.wrap(log, 'nats');
    wrapped.subscribe(() => undefined);
    await recorder.current.run(lane, () => wrapped.append(three));
    deliver([0]);
    expect(spans.filter((s) => s.name === 'apply')).toEqual([]);
    deliver([1, 2]);
    const applies = spans.filter((s) => s.name === 'apply');
    expect(applies).toHaveLength(1);
    expect(applies[0].parentSpanId).toBe(lane.context.spanId);
    expect(applies[0].attributes).toEqual({ 'log.records': 3 });
    expect(spans.filter((s) => s.name === 'nats publish').map((s) => s.parentSpanId)).toEqual([
      lane.context.spanId,
    ]);
  });

  it('gives a refused append no apply span, though other records later take its offsets', async () => {
    const { log, deliver, refuseNext } = handDeliveredLog();
    const wrapped = traced.wrap(log, 'nats');
    wrapped.subscribe(() => undefined);
    refuseNext();
    await expect(recorder.current.run(lane, () => wrapped.append(three))).rejects.toThrow(
      'expected head mismatch',
    );
    deliver([0, 1, 2]);
    expect(spans.filter((s) => s.name === 'apply')).toEqual([]);
    expect(spans.find((s) => s.name === 'nats publish')?.error).toBe('expected head mismatch');
  });

  it('passes appends outside a traced request straight through, making no span', async () => {
    const { log, deliver } = handDeliveredLog();
    const wrapped = traced.wrap(log, 'file');
    wrapped.subscribe(() => undefined);
    await wrapped.append(three);
    deliver([0, 1, 2]);
    expect(spans).toEqual([]);
  });
});
