import { AddressInfo } from 'node:net';
import { collect, openSocket } from '../../support/raw-http';
import { TestApp } from '../../support/test-app';

interface WireReply {
  readonly head: string;
  readonly body: string;
  readonly closed: boolean;
}

/**
 * Issue 24 item 8: refusals made below the routes — Node's parser and timers, Node's own checks,
 * Fastify's defaults — came back as JSON (or empty, or not at all). Each is pinned here on a real
 * socket: text/plain, the status first, the correction named (contract §14).
 */
describe('refusals below the routes answer in the error doctrine', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await TestApp.start({ requestTimeoutSeconds: 2, headersTimeoutSeconds: 1 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.getHttpServer() as { address(): AddressInfo }).address().port}`;
  });
  afterAll(() => t.close());

  /** Writes `bytes` (then half-closes unless `keepOpen`) and returns the first reply and whether the server closed. */
  async function send(
    bytes: string,
    options: { keepOpen?: boolean; waitMs?: number } = {},
  ): Promise<WireReply[]> {
    const socket = await openSocket(url);
    const reply = collect(socket, options.waitMs ?? 5000);
    if (options.keepOpen) socket.write(Buffer.from(bytes, 'latin1'));
    else socket.end(Buffer.from(bytes, 'latin1'));
    const { text, closed } = await reply;
    socket.destroy();
    return text
      .split(/(?=HTTP\/1\.1 \d{3} )/)
      .filter((part) => part !== '')
      .map((part) => {
        const [head, ...rest] = part.split('\r\n\r\n');
        return { head, body: Buffer.from(rest.join('\r\n\r\n'), 'latin1').toString('utf8'), closed };
      });
  }

  function expectRefusal(reply: WireReply, status: number, start: RegExp): void {
    expect(reply.head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(reply.head.toLowerCase()).toContain('\r\ncontent-type: text/plain; charset=utf-8');
    expect(reply.head.toLowerCase()).toContain('\r\nconnection: close');
    expect(reply.body).toMatch(start);
    expect(reply.body.endsWith('\n')).toBe(true);
    expect(reply.closed).toBe(true);
  }

  it.each([
    [
      'a Content-Length that is no number',
      'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      /^400 malformed request: Content-Length must be one decimal number/,
    ],
    [
      'Content-Length beside chunked',
      'POST /r/a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      /^400 malformed request: send either Content-Length or Transfer-Encoding: chunked/,
    ],
    [
      'a method HTTP does not define',
      'get /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      /^400 malformed request: the method is not one HTTP defines/,
    ],
    [
      'a target that is no path',
      'GET healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      /^400 malformed request: the request target is not a path/,
    ],
    [
      'a bad version',
      'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n',
      /^400 malformed request: the request line must end in HTTP\/1\.1/,
    ],
    [
      'a control byte in a header',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX: a\x01b\r\n\r\n',
      /^400 malformed request: a header line is not `Name: value`/,
    ],
    [
      'a malformed chunk',
      'POST /r/a HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n',
      /^400 malformed request: the chunked body is malformed/,
    ],
    [
      'HTTP/1.1 without Host',
      'GET /healthz HTTP/1.1\r\n\r\n',
      /^400 malformed request: HTTP\/1\.1 requires a Host header/,
    ],
    [
      'an HTTP/2 preface',
      'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
      /^400 malformed request: this server speaks HTTP\/1\.1/,
    ],
    [
      'a request cut short by the client',
      'POST /r/a HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 30\r\n\r\n{"from"',
      /^400 malformed request: the connection ended in the middle of a request/,
    ],
    [
      'a 20 KB URL (Node’s 16 KiB head limit)',
      `GET /r/a/say/n/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      /^431 request head too large: the request line and headers passed 16384 bytes\. Long texts go in a POST body/,
    ],
    [
      'an Expect other than 100-continue',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n',
      /^417 expectation failed: this server understands only Expect: 100-continue/,
    ],
    [
      'a Content-Type that is no media type',
      'OPTIONS /r/a HTTP/1.1\r\nHost: x\r\nContent-Type: \xe6\t\xfe\r\nContent-Length: 2\r\n\r\n{}',
      /^415 unsupported media type: the Content-Type header is not a media type/,
    ],
  ])('%s', async (_name, bytes, start) => {
    const [reply] = await send(bytes);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(reply.head)?.[1]);
    expect(status).toBe(Number(start.source.slice(1, 4)));
    if (status === 415) {
      // Answered by the exception filter on a route's reply: text/plain, closed since the body was unread
      expect(reply.body).toMatch(start);
      expect(reply.head.toLowerCase()).toContain('content-type: text/plain; charset=utf-8');
      return;
    }
    expectRefusal(reply, status, start);
  });

  it('CONNECT gets the 405 of contract §14.2, where Node dropped the connection without a word', async () => {
    const [reply] = await send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectRefusal(reply, 405, /^405 CONNECT is not accepted here\. This service answers GET everywhere/);
    expect(reply.head.toLowerCase()).toContain('\r\nallow: get, head, post');
  });

  it('headers that never end get a 408 naming the timeouts', async () => {
    const [reply] = await send('GET /healthz HTTP/1.1\r\nHost: x\r\n', { keepOpen: true });
    expectRefusal(
      reply,
      408,
      /^408 request timeout: the request did not arrive whole within 2s \(its headers within 1s\)/,
    );
  });

  it('a refusal waits for the replies owed to requests that arrived whole before the bad bytes', async () => {
    const replies = await send(
      'GET /r/order/say/a/first HTTP/1.1\r\nHost: x\r\n\r\nFOO / HTTP/1.1\r\nHost: x\r\n\r\n',
      { keepOpen: true },
    );
    expect(replies.map((reply) => reply.head.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 400']);
    expect(replies[1].body).toMatch(/^400 malformed request: the method/);
  });
});

describe('a request reaching a closing server', () => {
  it('gets the 503 of the error table in text/plain, not Fastify’s JSON', async () => {
    const t = await TestApp.start({ maxWait: 2 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.getHttpServer() as { address(): AddressInfo }).address().port}`;
    // Given a connection whose long-poll is parked (closing the server keeps a busy connection)
    const socket = await openSocket(url);
    const replies = collect(socket, 8000);
    socket.write('GET /r/quiet?since=0&wait=2 HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // When the server starts closing and the connection sends its next request
    const closing = t.app.getHttpAdapter().getInstance().close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const { text } = await replies;
    await closing;
    await t.close();
    // Then the long-poll is answered, and the next request refused in the doctrine's words
    const [first, second] = text.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second.toLowerCase()).toContain('content-type: text/plain; charset=utf-8');
    expect(second).toMatch(
      /\r\n\r\n503 shutting down: this node is stopping and did not process the request\./,
    );
  }, 20_000);
});
