import { jetstream, jetstreamManager, JetStreamManager } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { StreamForkedError } from '../../../src/log/nats/nats-log.errors';
import { checksum, StreamGuard } from '../../../src/log/nats/stream-guard';
import { TailRecord } from '../../../src/log/nats/stream-tail';
import { StreamVerifier } from '../../../src/log/nats/stream-verifier';
import { deleteStream, NATS_URL, uniqueStreamName } from '../../support/nats-stream';

/**
 * The guard and verifier against a real nats-server: the node applied record 4 (as the tail of a
 * cluster delivers a committed record) while the stream shows 3 (as a replica answering during a
 * leader election does), then the stream's state moves on for real: record 4 arrives as applied, never
 * arrives, or arrives as another record.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const APPLIED = Buffer.from('{"type":"message.appended","text":"the fourth"}');

interface Rig {
  readonly verifier: StreamVerifier;
  readonly guard: StreamGuard;
  readonly forks: StreamForkedError[];
  readonly released: TailRecord[];
  readonly warnings: string[];
  publish(data: Buffer): Promise<number>;
}

describe('a stream that shows less than this node applied (never fork on one view)', () => {
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const streams: string[] = [];
  const verifiers: StreamVerifier[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: NATS_URL });
    jsm = await jetstreamManager(nc);
  });
  afterAll(async () => {
    for (const verifier of verifiers) verifier.stop();
    await nc.close();
    for (const stream of streams) await deleteStream(stream);
  });

  /** A stream holding records 1..3, and a guard that applied them and record 4 (APPLIED). */
  async function rig(windowMs: number): Promise<Rig> {
    const stream = uniqueStreamName('shortfall');
    streams.push(stream);
    const subject = `chat.${stream}.v2.r:room`;
    await jsm.streams.add({ name: stream, subjects: [`chat.${stream}.v2.*`] });
    const js = jetstream(nc);
    const publish = async (data: Buffer) => (await js.publish(subject, data)).seq;
    const forks: StreamForkedError[] = [];
    const guard = new StreamGuard(stream, (fork) => forks.push(fork), { windowMs });
    for (let i = 1; i <= 3; i++) {
      const data = Buffer.from(`record ${i}`);
      guard.applied({ seq: await publish(data), subject, crc: checksum(data) });
    }
    guard.applied({ seq: 4, subject, crc: checksum(APPLIED) });
    const released: TailRecord[] = [];
    const warnings: string[] = [];
    const verifier = new StreamVerifier({
      jsm,
      stream,
      guard,
      release: (records) => released.push(...records),
      warn: (message) => warnings.push(message),
    });
    verifiers.push(verifier);
    return { verifier, guard, forks, released, warnings, publish };
  }

  const delivered: TailRecord = { offset: 4, subject: 'chat.x.v2.r:room', payload: Buffer.from('5') };

  async function settled(verifier: StreamVerifier, withinMs: number): Promise<number> {
    const started = Date.now();
    while (verifier.verifying && Date.now() - started < withinMs) await sleep(50);
    return Date.now() - started;
  }

  it('given the stream behind, seen by the watchdog, then writes and applying wait; once it holds the applied record, no fork and the held records go on', async () => {
    const { verifier, guard, forks, released, warnings, publish } = await rig(15_000);
    expect(await verifier.inspect()).toBe(3); // the watchdog's periodic check
    expect(verifier.verifying?.message).toContain("verifying the stream's history");
    verifier.deliver([delivered]);
    await sleep(800);
    expect(verifier.verifying).toBeDefined();
    expect(released).toEqual([]);
    expect(await publish(APPLIED)).toBe(4);
    const waitedMs = await settled(verifier, 5_000);
    expect(verifier.verifying).toBeUndefined();
    expect(waitedMs).toBeLessThan(5_000);
    expect(forks).toEqual([]);
    expect(guard.fork).toBeUndefined();
    expect(released).toEqual([delivered]);
    expect(warnings[0]).toMatch(/shows last sequence 3 .* not the record 4 this node applied/);
    expect(warnings[1]).toMatch(/holds record 4 this node applied after \d+ ms: carrying on/);
  }, 30_000);

  it('given the stream behind for the whole window, then it is a fork, and nothing held was applied', async () => {
    const { verifier, forks, released } = await rig(1_500);
    const started = Date.now();
    verifier.disrupted('stream leader elected');
    verifier.deliver([delivered]);
    await settled(verifier, 10_000);
    expect(forks).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(forks[0].message).toMatch(
      /its last sequence is 3, but this node applied records up to 4 \(still after 1\.\d s\)/,
    );
    expect(released).toEqual([]);
  }, 30_000);

  it('given another record stored where this node applied record 4, then it is a fork at once, long before the window', async () => {
    const { verifier, forks, released, publish } = await rig(60_000);
    verifier.disrupted('reconnected to NATS');
    await sleep(500);
    expect(forks).toEqual([]);
    expect(await publish(Buffer.from('{"type":"message.appended","text":"another fourth"}'))).toBe(4);
    const waitedMs = await settled(verifier, 10_000);
    expect(waitedMs).toBeLessThan(10_000);
    expect(forks).toHaveLength(1);
    expect(forks[0].message).toContain('its record 4 is not the one this node applied');
    expect(released).toEqual([]);
  }, 30_000);
});
