import { jetstreamManager, JetStreamManager } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { AppendResult, LogScope } from '../../../src/log/event-log';
import { LogConflictError } from '../../../src/log/log.errors';
import { JetStreamEventLog } from '../../../src/log/nats/jetstream-event-log';
import { deleteStream, natsLogOptions, uniqueStreamName } from '../../support/nats-stream';

const QUIET: LogScope = ['r', 'quiet'];
const BUSY: LogScope = ['r', 'busy'];

async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Issue 27 at the log: the stream is purged past a quiet scope's last record by another node (so
 * this node's idea of the stream's first sequence is stale), and this node, which applied that
 * record, writes to the scope. NATS refuses the precondition naming the purged record; that must be
 * a retry ("purged"), never a fork, and the retry goes with "no record" and the stream's first
 * sequence, which the other node, which also applied the purged record, accepts.
 */
describe('a write to a scope whose last record was purged by another node (real nats-server)', () => {
  const stream = uniqueStreamName('purged-scope');
  const logs: JetStreamEventLog[] = [];
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  const open = async () => {
    const log = new JetStreamEventLog(natsLogOptions(stream, { retention: 'snapshot' }));
    logs.push(log);
    await log.open();
    return log;
  };

  beforeAll(async () => {
    nc = await connect({ servers: [natsLogOptions(stream).servers[0]] });
    jsm = await jetstreamManager(nc);
  });

  afterAll(async () => {
    await Promise.all(logs.map((log) => log.close()));
    await nc?.close();
    await deleteStream(stream);
  });

  it('is decided again against "no record" and the stream\'s first sequence; no node declares a fork', async () => {
    const writer = await open();
    const other = await open();
    await writer.append([Buffer.from('quiet 1')], { scopes: [QUIET] });
    for (let i = 0; i < 5; i++) await writer.append([Buffer.from(`busy ${i}`)], { scopes: [BUSY] });
    await until(
      'both logs applied 6 records',
      () => writer.committedHead() === 6 && other.committedHead() === 6,
    );

    // Another node's purge: neither log here took part, so neither knows the new first sequence.
    await jsm.streams.purge(stream, { seq: 4 });
    const refusals: string[] = [];
    let stored: AppendResult | undefined;
    for (let attempt = 0; attempt < 3 && stored === undefined; attempt++) {
      try {
        stored = await writer.append([Buffer.from('quiet 2')], { scopes: [QUIET] });
      } catch (error) {
        if (!(error instanceof LogConflictError)) throw error;
        refusals.push(error.message);
      }
    }
    // Refused once, unless the 2-s stream inspection read the new first sequence just before.
    expect(refusals.length).toBeLessThanOrEqual(1);
    for (const refusal of refusals)
      expect(refusal).toContain('its last record 1 was purged (the stream starts at 4)');
    expect(stored).toEqual({ first: 6, next: 7 });

    const record = await jsm.streams.getMessage(stream, { seq: 7 });
    expect(record?.header.get('Nats-Expected-Last-Subject-Sequence')).toBe('0');
    expect(record?.header.get('Chat-Stream-First-Seq')).toBe('4');
    await until(
      'the other log applied it',
      () => other.committedHead() === 7 || other.writeFault() !== undefined,
    );
    expect([writer.writeFault(), other.writeFault()]).toEqual([undefined, undefined]);

    // The scope goes on from that record, through either log.
    expect(await other.append([Buffer.from('quiet 3')], { scopes: [QUIET] })).toEqual({ first: 7, next: 8 });
    await until(
      'the writer applied it',
      () => writer.committedHead() === 8 || writer.writeFault() !== undefined,
    );
    expect(writer.writeFault()).toBeUndefined();
  }, 60_000);
});
