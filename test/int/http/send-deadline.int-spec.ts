import { createServer, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { ConnectionGovernor } from '../../../src/http/connections/connection-governor';
import { sendBacklog, SendBacklog } from '../../../src/http/connections/send-deadline';
import { openSocket } from '../../support/raw-http';

const CHUNK = Buffer.alloc(1024 * 1024, 'e');
const DEADLINE_SECONDS = 3;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The send deadline as a long-lived reply (server-sent events, issue 28) meets it: a plain Node server
 * with the governor streams 1 MiB every 50 ms (`?chunks=` of them), for longer than the 3 s deadline
 * and far faster than loopback's buffers drain into a client that pauses. The deadline is about bytes
 * left undrained, not about the reply's age.
 */
describe('the send deadline on a long-lived stream', () => {
  let server: Server;
  let url: string;
  const backlogs: SendBacklog[] = [];
  let serverSideClosedAt: number | undefined;
  beforeEach(async () => {
    backlogs.length = 0;
    serverSideClosedAt = undefined;
    server = createServer((request, response) => {
      const chunks = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('chunks'));
      request.socket.once('close', () => (serverSideClosedAt = Date.now()));
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const timer = setInterval(() => {
        if (response.destroyed || sent++ === chunks) {
          clearInterval(timer);
          response.end();
          return;
        }
        backlogs.push(sendBacklog(request.socket));
        response.write(CHUNK);
      }, 50);
    });
    ConnectionGovernor.install(server, {
      maxConnections: 16,
      maxConnectionsPerClient: 16,
      maxPipelined: 4,
      sendDeadlineSeconds: DEADLINE_SECONDS,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function read(socket: Socket): { bytes: () => number; ended: Promise<'end' | 'reset'> } {
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    const ended = new Promise<'end' | 'reset'>((resolve) => {
      socket.once('end', () => resolve('end'));
      socket.once('error', () => resolve('reset'));
    });
    return { bytes: () => bytes, ended };
  }

  it('lets a client that reads in bursts receive the whole stream, longer than the deadline', async () => {
    const socket = await openSocket(url);
    const reader = read(socket);
    const started = Date.now();
    socket.write('GET /sse?chunks=120 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    let outcome: 'end' | 'reset' | undefined;
    void reader.ended.then((how) => (outcome = how));
    // Reads 200 ms, then stops reading for 1 s (a third of the deadline), until the stream ends
    while (outcome === undefined) {
      socket.resume();
      await pause(200);
      socket.pause();
      await pause(1000);
    }
    socket.resume();
    expect(outcome).toBe('end');
    expect(reader.bytes()).toBeGreaterThan(120 * CHUNK.length);
    expect(Date.now() - started).toBeGreaterThan(DEADLINE_SECONDS * 1000);
    // While it was not reading, megabytes waited in Node's buffer (what a stream reads to coalesce)
    expect(Math.max(...backlogs.map((b) => b.pendingBytes))).toBeGreaterThan(CHUNK.length);
  }, 30_000);

  it('resets the connection of a client that stops reading, once the deadline passes', async () => {
    // Given a client that asks for a 12 s stream and never reads it
    const socket = await openSocket(url);
    socket.pause();
    const reader = read(socket);
    const started = Date.now();
    socket.write('GET /sse?chunks=240 HTTP/1.1\r\nHost: x\r\n\r\n');
    while (serverSideClosedAt === undefined && Date.now() - started < 11_000) await pause(50);
    // Then the server closed its side long before the stream's own end, by a reset
    expect(serverSideClosedAt).toBeDefined();
    expect(serverSideClosedAt! - started).toBeLessThan((DEADLINE_SECONDS + 4) * 1000);
    expect(backlogs.length).toBeLessThan(240);
    socket.resume();
    await reader.ended; // what loopback had delivered before the reset, then the end
    expect(reader.bytes()).toBeLessThan(240 * CHUNK.length);
    // And the stream saw its client fall behind for seconds before that
    expect(Math.max(...backlogs.map((b) => b.stalledMs))).toBeGreaterThan(1000);
  }, 30_000);
});
