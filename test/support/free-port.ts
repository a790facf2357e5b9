import { createServer } from 'node:net';

/**
 * A loopback port the kernel has free now, for programs that must be told a port (Prometheus, a
 * metrics listener, compose's published ports). Another process may take it before it is used, but
 * kernel-chosen ports are spread widely enough that this does not happen in practice.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
