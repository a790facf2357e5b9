import { ServiceProcess } from '../../support/service-process';
import { closedWithin, collect, openSocket } from '../../support/raw-http';
import { makeTempDir } from '../../support/temp-dir';

const CHUNK = Buffer.alloc(16 * 1024, 'a');

/**
 * Streams a chunked POST body well past the 256 KiB cap, the way a client that never looks at the
 * reply until it is done sending would, and returns what it could read afterwards.
 */
async function streamPastTheCap(url: string): Promise<string> {
  const socket = await openSocket(url);
  const reply = collect(socket, 10_000);
  socket.write(
    'POST /r/linger?format=json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n',
  );
  let failed = false;
  socket.once('error', () => (failed = true));
  for (let sent = 0; sent < 512 * 1024 && !failed; sent += CHUNK.length) {
    const more = socket.write(`${CHUNK.length.toString(16)}\r\n${CHUNK.toString('latin1')}\r\n`);
    if (!more) await new Promise((r) => socket.once('drain', r).once('close', r));
  }
  if (!failed) socket.end('0\r\n\r\n');
  return (await reply).text;
}

describe('connection hygiene on real sockets (issue 11 item 4, issue 18 item 3)', () => {
  const dir = makeTempDir('agent-chat-hygiene');
  let service: ServiceProcess;
  beforeAll(async () => {
    service = await ServiceProcess.start({
      CHAT_ROOT: dir.path,
      CHAT_HEADERS_TIMEOUT_SECONDS: '1',
      CHAT_REQUEST_TIMEOUT_SECONDS: '2',
    });
  });
  afterAll(async () => {
    await service.stop();
    dir.remove();
  });

  it('a client streaming past 256 KiB without Content-Length reads its 413, 50 times in a row', async () => {
    for (let i = 0; i < 50; i++) {
      const text = await streamPastTheCap(service.baseUrl);
      expect({ attempt: i, head: text.slice(0, 40) }).toEqual({
        attempt: i,
        head: expect.stringMatching(/^HTTP\/1\.1 413 /),
      });
    }
  }, 120_000);

  it('a refusal sent before the body was read closes the connection', async () => {
    const socket = await openSocket(service.baseUrl);
    const reply = collect(socket, 5000);
    socket.write('POST /no/such/route/here HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"text":');
    const { text, closed } = await reply;
    expect(text).toMatch(/^HTTP\/1\.1 404 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(closed).toBe(true);
  });

  it('a read (no body) keeps its connection alive', async () => {
    const socket = await openSocket(service.baseUrl);
    const reply = collect(socket, 1500);
    socket.write('GET /no/such/route HTTP/1.1\r\nHost: x\r\n\r\n');
    const { text, closed } = await reply;
    expect(text).toMatch(/^HTTP\/1\.1 404 /);
    expect(text.toLowerCase()).not.toContain('connection: close');
    expect(closed).toBe(false);
    socket.destroy();
  });

  it('Expect: 100-continue: a refusal comes without a 100 first; an accepted body gets its 100', async () => {
    const refused = await openSocket(service.baseUrl);
    const refusal = collect(refused, 5000);
    refused.write(
      'POST /r/cont HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 999999\r\n' +
        'Expect: 100-continue\r\n\r\n',
    );
    expect((await refusal).text).toMatch(/^HTTP\/1\.1 413 /);

    const accepted = await openSocket(service.baseUrl);
    const body = '{"from":"a","text":"after the continue"}';
    let sentBody = false;
    accepted.on('data', (chunk: Buffer) => {
      if (!sentBody && chunk.toString('latin1').startsWith('HTTP/1.1 100')) {
        sentBody = true;
        accepted.write(body);
      }
    });
    const reply = collect(accepted, 5000);
    accepted.write(
      `POST /r/cont HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
        'Expect: 100-continue\r\nConnection: close\r\n\r\n',
    );
    const { text } = await reply;
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });

  it('a duplicated Host header is refused with 400', async () => {
    const socket = await openSocket(service.baseUrl);
    const reply = collect(socket, 5000);
    socket.write('GET /healthz HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n');
    expect((await reply).text).toMatch(/^HTTP\/1\.1 400 [^]*Host headers/);
  });

  it('headers trickled past the headers timeout, or a body past the request timeout, lose the socket', async () => {
    const headers = await openSocket(service.baseUrl);
    headers.write('GET /healthz HTTP/1.1\r\n');
    const trickle = setInterval(() => headers.write('X-Slow: 1\r\n'), 200);
    const headersClosed = await closedWithin(headers, 8000);
    clearInterval(trickle);
    expect(headersClosed).toBe(true);

    const body = await openSocket(service.baseUrl);
    body.write('POST /no/such/route/x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n');
    const drip = setInterval(() => body.writable && body.write('a'), 200);
    const bodyClosed = await closedWithin(body, 8000);
    clearInterval(drip);
    expect(bodyClosed).toBe(true);
  });
});
