import { ClientRequest, IncomingHttpHeaders, request } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import { WaitSlots } from '../../../src/access/wait-slots';
import { AppConfig } from '../../../src/config/app-config';
import { TestApp } from '../../support/test-app';

interface RawReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly elapsedMs: number;
}

/** Starts a request on a fresh connection; `feed` writes the body while the reply has not arrived. */
function send(
  port: number,
  options: { method: string; path: string; headers?: Record<string, string> },
  feed: (req: ClientRequest, answered: () => boolean) => Promise<void> = async (req) => void req.end(),
): Promise<RawReply> {
  const started = Date.now();
  const req = request({ host: '127.0.0.1', port, agent: false, ...options });
  req.on('error', () => undefined); // writes after the server answered and closed may fail; the reply counts
  let answered = false;
  const reply = new Promise<RawReply>((resolve, reject) => {
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, elapsedMs: Date.now() - started });
        req.destroy();
      });
      res.on('error', reject);
    });
  });
  void feed(req, () => answered);
  return reply;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(condition: () => boolean, timeoutMs = 2000): Promise<number> {
  const started = Date.now();
  while (!condition() && Date.now() - started < timeoutMs) await pause(5);
  expect(condition()).toBe(true);
  return Date.now() - started;
}

describe('HTTP edges on a real socket', () => {
  let t: TestApp;
  let port: number;
  const start = async (overrides: Partial<AppConfig>): Promise<void> => {
    t = await TestApp.start(overrides);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  };
  afterEach(() => t.close());

  it('answers a chunked body that streams past 256 KiB with 413 as soon as it does, then a spent write bucket', async () => {
    await start({ rateWrite: 3 });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const tooLarge = await send(
      port,
      {
        method: 'POST',
        path: '/r/room',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      },
      async (req, answered) => {
        for (let i = 0; i < 8 && !answered(); i++) {
          req.write(chunk);
          sent += chunk.length;
          await pause(20);
        }
      },
    );
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.connection).toBe('close');
    expect(tooLarge.body.split('\n')).toEqual([
      expect.stringMatching(/^413 body too large: the cap is 262144 bytes,/),
      expect.stringMatching(/^Split/),
      'the stream passed it before it ended.',
      '',
    ]);
    expect(sent).toBeLessThanOrEqual(6 * chunk.length); // refused on the chunk that crossed the cap, not at the end

    const headersOnly = async (req: ClientRequest): Promise<void> => void req.flushHeaders(); // no body at all
    const declared = await send(
      port,
      { method: 'POST', path: '/r/room', headers: { 'content-length': '262145' } },
      headersOnly,
    );
    expect(declared.status).toBe(413);
    expect(declared.body).toContain('your Content-Length said 262145 bytes.');

    const ok = await send(
      port,
      { method: 'POST', path: '/r/room', headers: { 'content-length': '262144' } },
      async (req) => {
        req.end(`{"from":"a","text":"fits"}${' '.repeat(262_144 - 26)}`);
      },
    );
    expect(ok.status).toBe(200);
    const limited = await send(port, { method: 'GET', path: '/r/room/say/a/x' });
    expect(limited.status).toBe(429); // the two 413s each spent their write token
  });

  it('answers a body trickling past the deadline with 408 and closes the connection', async () => {
    await start({ bodyDeadlineSeconds: 1, rateWrite: 2 });
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    socket.write('POST /r/room HTTP/1.1\r\nHost: test\r\nContent-Length: 100\r\n\r\n');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    const endedByServer = new Promise<number>((resolve) =>
      socket.once('end', () => resolve(Date.now() - started)),
    );
    let ended = false;
    void endedByServer.then(() => (ended = true));
    for (let i = 0; i < 30 && !ended && received === ''; i++) {
      socket.write('{');
      await pause(150);
    }
    const endedAfterMs = await endedByServer; // the server ended the connection (FIN), not the client
    socket.destroy();
    const [head, body] = received.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head.toLowerCase()).toContain('\r\nconnection: close');
    expect(body).toMatch(/^408 body upload exceeded 1s\. .*retry on a new connection\.\n$/);
    expect(endedAfterMs).toBeGreaterThanOrEqual(950);
    expect(endedAfterMs).toBeLessThan(2500);
    expect((await send(port, { method: 'GET', path: '/r/room/say/a/x' })).status).toBe(200);
    expect((await send(port, { method: 'GET', path: '/r/room/say/a/y' })).status).toBe(429); // the 408 cost one
  });

  it('frees a long-poll slot the moment its client disconnects', async () => {
    await start({ maxWaitersPerIp: 1 });
    const slots = t.get(WaitSlots);
    const abandoned = request({ host: '127.0.0.1', port, agent: false, path: '/r/quiet?since=0&wait=10' });
    abandoned.on('error', () => undefined);
    abandoned.end();
    await until(() => slots.inUse === 1);
    abandoned.destroy();
    expect(await until(() => slots.inUse === 0)).toBeLessThan(500);

    const next = send(port, { method: 'GET', path: '/r/quiet?since=0&wait=10&format=json' });
    await until(() => slots.inUse === 1); // parked: it got the freed slot
    await send(port, { method: 'GET', path: '/r/quiet/say/a/wake' });
    const woken = await next;
    expect(JSON.parse(woken.body)).toMatchObject({ count: 1 });
    expect(woken.body).not.toContain('wait_held');
    expect(slots.inUse).toBe(0);
  });
});
