import { request, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { AppConfig } from '../../../src/config/app-config';
import { ServiceMetrics } from '../../../src/metrics/service-metrics';
import { openSocket } from '../../support/raw-http';
import { TestApp } from '../../support/test-app';

interface Answer {
  readonly status: number;
  readonly body: string;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 24 item 7: 20,000 connections from 100 addresses filled the total (≈74 addresses at their
 * per-address cap did), and /healthz and writes from any other address were reset for as long as the
 * flood held its sockets. Real sockets from many loopback source addresses (127.0.0.0/8 is all local).
 */
describe('shares of the connection total, from many loopback addresses', () => {
  let t: TestApp;
  let server: Server;
  let url: string;
  const held: Socket[] = [];

  async function start(overrides: Partial<AppConfig>): Promise<void> {
    t = await TestApp.start(overrides);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    server = t.app.getHttpServer() as Server;
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  afterEach(async () => {
    for (const socket of held.splice(0)) socket.destroy();
    await t.close();
  });

  const openConnections = (): Promise<number> =>
    new Promise((resolve, reject) =>
      server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );

  function get(path: string, from: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const { port } = new URL(url);
      const req = request({ host: '127.0.0.1', port, path, localAddress: from, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** Idle connections from `from`, as many as it asks for; the ones the server closes are dropped. */
  async function hold(from: string, count: number): Promise<void> {
    const sockets = await Promise.all(Array.from({ length: count }, () => openSocket(url, from)));
    for (const socket of sockets) {
      socket.on('error', () => undefined);
      socket.once('close', () => held.splice(held.indexOf(socket) >>> 0, 1));
      held.push(socket);
    }
    await pause(30); // the server closes a refused connection at accept
  }

  /** Addresses 127.0.0.2, .3, … each ask for `perAddress` idle connections until the total is reached. */
  async function fill(total: number, perAddress: number): Promise<number> {
    for (let a = 2; a < 250; a++) {
      await hold(`127.0.0.${a}`, perAddress);
      if ((await openConnections()) >= total) return a - 1;
    }
    throw new Error(`the total of ${total} was never reached`);
  }

  it('admits a newcomer’s /healthz and write at the total by closing the longest idle connection', async () => {
    // Given a total of 60 connections, 16 per address, filled by idle connections from many addresses
    await start({ maxConnections: 60, maxConnectionsPerClient: 16, metricsPort: '0' });
    const addresses = await fill(60, 16);
    expect(await openConnections()).toBe(60);
    // (an address's share shrinks past half the total: more than 60/16 addresses were needed)
    expect(addresses).toBeGreaterThan(4);
    const oldest = held[0];
    const oldestClosed = new Promise<boolean>((resolve) => oldest.once('close', () => resolve(true)));
    // When a newcomer connects
    const health = await get('/healthz', '127.0.0.250');
    const write = await get('/r/newcomer/say/n/hello%20there', '127.0.0.250');
    // Then it is served, and the connection idle the longest made room for it
    expect(health).toEqual({ status: 200, body: 'ok\n' });
    expect(write.status).toBe(200);
    expect(await Promise.race([oldestClosed, pause(2000).then(() => false)])).toBe(true);
    expect(await openConnections()).toBeLessThanOrEqual(60);
    // And the metrics say why connections were closed
    const closed = await t
      .get(ServiceMetrics)
      .registry.getSingleMetricAsString('chat_connections_closed_total');
    expect(closed).toMatch(/chat_connections_closed_total\{reason="shed_idle"\} [1-9]/);
    expect(closed).toMatch(/chat_connections_closed_total\{reason="share"\} [1-9]/);
    const open = await t.get(ServiceMetrics).registry.getSingleMetricAsString('chat_connections_open');
    expect(open).toMatch(/chat_connections_open \d+/);
  }, 30_000);

  it('refuses an address past its share while the rest of the pool stays open to others', async () => {
    // Given a total of 40 and 16 per address: one address takes 16, a second its shrinking share
    await start({ maxConnections: 40, maxConnectionsPerClient: 16 });
    await hold('127.0.0.2', 16);
    await hold('127.0.0.3', 16);
    const open = await openConnections();
    // Then the second got fewer than 16 (past half, a share of what is free), and others still connect
    expect(open).toBeLessThan(32);
    expect(open).toBeGreaterThan(16);
    expect((await get('/healthz', '127.0.0.4')).status).toBe(200);
  }, 30_000);

  it('keeps busy connections: at the total with every connection waiting on a reply, a newcomer is refused', async () => {
    // Given a total of 6, each held by a long-poll in flight from its own address
    await start({
      maxConnections: 6,
      maxConnectionsPerClient: 4,
      maxWaitersTotal: 6,
      maxWaitersPerIp: 1,
      maxWait: 3,
    });
    const polls = Array.from({ length: 6 }, (_, i) => get('/r/quiet?since=0&wait=3', `127.0.0.${10 + i}`));
    while ((await openConnections()) < 6) await pause(20);
    await pause(100);
    // When a newcomer connects, nothing idle can make room: it is refused, and no long-poll was cut
    await expect(get('/healthz', '127.0.0.250')).rejects.toThrow();
    for (const poll of await Promise.all(polls)) expect(poll.status).toBe(200);
    // And once they are answered (their keep-alive sockets idle), the newcomer is served
    expect((await get('/healthz', '127.0.0.250')).status).toBe(200);
  }, 30_000);
});
