import { AddressInfo, Socket } from 'node:net';
import { kernelSocket } from '../../support/kernel-sockets';
import { collect, openSocket } from '../../support/raw-http';
import { TestApp } from '../../support/test-app';

const DEADLINE_SECONDS = 2;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await pause(50);
  }
}

/**
 * Issue 24 item 6: a client that sends requests and never reads the replies held its socket and
 * ~3.7 MB of kernel buffers for ever. Real sockets on loopback; the kernel's own table
 * (/proc/net/tcp) shows what the server side of the connection holds.
 */
describe('slow readers: the send deadline and the pipelining cap, on real sockets', () => {
  let t: TestApp;
  let url: string;
  let port: number;
  beforeAll(async () => {
    t = await TestApp.start({
      sendDeadlineSeconds: DEADLINE_SECONDS,
      maxPipelined: 32,
      maxWait: 5,
      fsync: 'none',
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    url = `http://127.0.0.1:${port}`;
    // A room whose newest 200 messages make a ~800 KB reply: 16 of them are far more than loopback's
    // buffers take (~4 MB sent, ~128 KB received), so the rest waits in the server's own buffer.
    for (let i = 0; i < 200; i++) {
      const reply = await t.post('/r/big', { from: 'filler', text: `${i} ${'x'.repeat(4000)}` });
      expect(reply.status).toBe(200);
    }
  }, 60_000);
  afterAll(() => t.close());

  function pipelined(socket: Socket, path: string, count: number): void {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(count));
  }

  it('resets a connection whose replies wait unread past the deadline, and the kernel frees its queue', async () => {
    // Given a client that asks for 13 MB of replies and never reads
    const client = await openSocket(url);
    client.pause();
    pipelined(client, '/r/big?limit=200', 16);
    // Then the server side of the connection holds megabytes the client does not take
    const held = await until(
      'the server-side send queue filling',
      () => {
        const server = kernelSocket(port, client.localPort!);
        return server !== undefined && server.sendQueue > 1 << 20 ? server : undefined;
      },
      10_000,
    );
    const filledAt = Date.now();
    expect(held.state).toBe(1); // ESTABLISHED
    // When the deadline passes, the server resets the connection: the kernel no longer lists it, so
    // its buffers are free (a plain close would leave it in FIN_WAIT1 with the queue, for minutes)
    await until(
      'the server-side socket released',
      () => (kernelSocket(port, client.localPort!) ? undefined : true),
      10_000,
    );
    const releasedAfterMs = Date.now() - filledAt;
    expect(releasedAfterMs).toBeLessThan((DEADLINE_SECONDS + 5) * 1000);
    // And the client learns it on its next read
    const end = await collect(client.resume(), 5000);
    expect(end.closed).toBe(true);
  }, 30_000);

  it('never cuts a long-poll for its age: a wait longer than the deadline is answered', async () => {
    const socket = await openSocket(url);
    const reply = collect(socket, 10_000);
    const started = Date.now();
    socket.write('GET /r/quiet?since=0&wait=4 HTTP/1.1\r\nHost: x\r\n\r\n');
    await until('the long-poll answered', () => ((socket.bytesRead ?? 0) > 0 ? true : undefined), 9000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3500);
    await pause(200);
    socket.destroy();
    const { text, closed } = await reply;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(closed).toBe(true); // closed by us, above; the server had kept it
  }, 15_000);

  it('answers requests pipelined within the cap, and resets a connection that pipelines past it', async () => {
    // Given a client that pipelines 10 requests and reads: every one is answered
    const polite = await openSocket(url);
    const politeReply = collect(polite, 1500);
    pipelined(polite, '/healthz', 10);
    const answered = (await politeReply).text.match(/HTTP\/1\.1 200 /g) ?? [];
    expect(answered).toHaveLength(10);
    polite.destroy();
    // When a client pipelines 2,000 in one write
    const greedy = await openSocket(url);
    const greedyReply = collect(greedy, 5000);
    pipelined(greedy, '/healthz', 2000);
    const { text, closed } = await greedyReply;
    // Then at most the cap is answered and the connection is reset
    expect((text.match(/HTTP\/1\.1 200 /g) ?? []).length).toBeLessThanOrEqual(32);
    expect(closed).toBe(true);
    // And the service is unharmed
    const after = await openSocket(url);
    const afterReply = collect(after, 1500);
    pipelined(after, '/healthz', 1);
    expect((await afterReply).text).toMatch(/^HTTP\/1\.1 200 /);
    after.destroy();
  }, 20_000);
});
