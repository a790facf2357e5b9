import { createServer, get, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { SseSink } from '../../../src/streams/sse/sse-sink';
import { openSocket } from '../../support/raw-http';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * SseSink on a plain Node server and real sockets, where Node versions differ (see its comments): a
 * chunked response corked since Node 21 holds writes until uncork and ends before them, and 'drain'
 * comes only after a refused write, whose threshold is 16 KiB on Node 20 and 64 KiB since Node 22.
 */
describe('SseSink on a real socket', () => {
  let server: Server;
  let url: string;
  let handle: (response: ServerResponse) => void;
  const sockets: Socket[] = [];
  beforeEach(async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      handle(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    sockets.splice(0).forEach((socket) => socket.destroy());
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('ends after the frames written in the same tick, the last frame last', async () => {
    handle = (response) => {
      const sink = new SseSink(response);
      sink.writeAll(['data: 1\n\n', 'data: 2\n\n']);
      sink.write('data: 3\n\n');
      sink.writeAll(['data: 4\n\n', 'data: 5\n\n']);
      sink.end('event: closed\ndata: {}\n\n', 1000);
    };
    const body = await new Promise<string>((resolve, reject) => {
      const request = get(url, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve(text));
      });
      request.on('error', reject);
    });
    expect(body).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\ndata: 5\n\nevent: closed\ndata: {}\n\n');
  });

  it('does not wait for a drain when bytes are pending but no write was refused', async () => {
    let result: Promise<{ pending: number; refused: boolean; drained: boolean | 'waited' }> | undefined;
    const answered = new Promise<void>((resolve) => {
      handle = (response) => {
        resolve();
        result = (async () => {
          const sink = new SseSink(response);
          // The client never reads: write 4 KiB at a time until the kernel's buffers are full and
          // Node holds the last bytes, fewer than any highWaterMark, so no write was refused.
          const frame = `data: ${'x'.repeat(4090)}\n\n`;
          for (let i = 0; i < 10_000 && sink.buffered === 0; i++) {
            sink.write(frame);
            await tick();
          }
          const drained = await Promise.race([
            sink.drained(),
            new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 2000)),
          ]);
          return { pending: sink.buffered, refused: response.writableNeedDrain, drained };
        })();
      };
    });
    const client = await openSocket(url);
    sockets.push(client);
    client.pause();
    client.write('GET / HTTP/1.1\r\nhost: x\r\n\r\n');
    await answered;
    const { pending, refused, drained } = await result!;
    expect(pending).toBeGreaterThan(0);
    expect([refused, drained]).toEqual([false, true]);
  }, 30_000);
});
