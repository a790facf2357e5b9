import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** The port the start-up probe holds until the service takes it over. */
export interface StartupProbe {
  readonly port: number;
  close(): Promise<void>;
}

const NOT_READY =
  '503 not ready:\n- starting: restoring the read models (a shared snapshot, then the stream after it)\n';

/**
 * Readiness while a node of the nats backend starts (issue 27): restoring a snapshot and replaying
 * the stream after it takes seconds to minutes, during which the service does not listen yet. A
 * plain HTTP server holds the service's port meanwhile so probes get an answer: `/readyz` 503 (keep
 * it out of a load balancer's rotation), `/healthz` 200 (the process works: a Kubernetes liveness
 * probe must not restart a node for taking its time), anything else 503 with Retry-After. Closed just
 * before the service listens on the same port (Node sets SO_REUSEADDR: the port is free at once).
 */
export async function openStartupProbe(host: string, port: number): Promise<StartupProbe> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const alive = path === '/healthz';
    res.writeHead(alive ? 200 : 503, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'close',
      ...(alive ? {} : { 'retry-after': '1' }),
    });
    res.end(alive ? 'ok\n' : NOT_READY);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
