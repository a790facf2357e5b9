import { headers, NatsConnection, RequestError, TimeoutError } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { AckRequests } from '../../../src/log/nats/ack-requests';
import { NATS_URL } from '../../support/nats-stream';

const TIMEOUT_MS = 300;
const subject = (name: string) => `ack-requests.${process.pid}.${randomBytes(3).toString('hex')}.${name}`;
const bytes = (text: string) => new TextEncoder().encode(text);

/** How long `promise` took to settle, and how. */
async function timed<T>(promise: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const start = performance.now();
  try {
    const value = await promise;
    return { ms: performance.now() - start, value };
  } catch (error) {
    return { ms: performance.now() - start, error };
  }
}

describe('AckRequests: replies on one subscription, timeouts on one timer (a real nats-server)', () => {
  let nc: NatsConnection;
  beforeEach(async () => {
    nc = await connect({ servers: [NATS_URL], noAsyncTraces: true });
  });
  afterEach(() => nc.close());

  it('given responders that answer, each request gets its own reply, whatever the order', async () => {
    const echo = subject('echo');
    nc.subscribe(echo, {
      callback: (_, msg) => void setTimeout(() => msg.respond(msg.data), 50 - msg.data[0]),
    });
    await nc.flush();
    const acks = new AckRequests(nc, TIMEOUT_MS);
    const replies = await Promise.all(
      [10, 30, 20].map((n) => acks.request(echo, Uint8Array.of(n), headers())),
    );
    expect(replies.map((reply) => reply.data[0])).toEqual([10, 30, 20]);
  });

  it('given a request nobody answers, it fails with a TimeoutError at the timeout, not later', async () => {
    const silent = subject('silent');
    nc.subscribe(silent, { callback: () => undefined }); // a responder that never replies
    await nc.flush();
    const acks = new AckRequests(nc, TIMEOUT_MS);
    const first = timed(acks.request(silent, bytes('a'), headers()));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Sent later, so swept by a re-armed timer: its own deadline still holds.
    const second = timed(acks.request(silent, bytes('b'), headers()));
    for (const result of await Promise.all([first, second])) {
      expect(result.error).toBeInstanceOf(TimeoutError);
      expect(result.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 2);
      expect(result.ms).toBeLessThan(TIMEOUT_MS + 150);
    }
  });

  it('given no subscriber on the subject, it fails as the client does: a RequestError for no responders', async () => {
    const acks = new AckRequests(nc, TIMEOUT_MS);
    const { error, ms } = await timed(acks.request(subject('nobody'), bytes('x'), headers()));
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).isNoResponders()).toBe(true);
    expect(ms).toBeLessThan(TIMEOUT_MS);
  });

  it('given the connection closes, every pending request fails at once', async () => {
    const silent = subject('closing');
    nc.subscribe(silent, { callback: () => undefined });
    await nc.flush();
    const acks = new AckRequests(nc, 60_000);
    const pending = [1, 2].map(() => timed(acks.request(silent, bytes('x'), headers())));
    await nc.flush();
    await nc.close();
    for (const result of await Promise.all(pending)) {
      expect(result.error).toBeInstanceOf(RequestError);
      expect(result.ms).toBeLessThan(5_000);
    }
  });
});
