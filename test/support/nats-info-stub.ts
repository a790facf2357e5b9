import { createServer, Server } from 'node:net';

/**
 * A TCP listener that speaks only the opening of the NATS client protocol — INFO (naming a server
 * version), then PONG to every PING — so a test can put "a server running nats-server 2.9.10" in
 * CHAT_NATS_URL without installing one (the tests never run the machine's old nats-server).
 */
export class NatsInfoStub {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(info: { name: string; version: string }): Promise<NatsInfoStub> {
    const server = createServer((socket) => {
      const line = JSON.stringify({
        server_id: `stub-${info.name}`,
        server_name: info.name,
        version: info.version,
        proto: 1,
        host: '127.0.0.1',
        port: 0,
        headers: true,
        max_payload: 1048576,
        jetstream: true,
      });
      socket.write(`INFO ${line}\r\n`);
      socket.on('data', (chunk) => {
        for (const _ of chunk.toString().match(/PING\r\n/g) ?? []) socket.write('PONG\r\n');
      });
      socket.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return new NatsInfoStub(server, `nats://127.0.0.1:${port}`);
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }
}
