import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Server } from 'node:http';

/**
 * Bounds a graceful shutdown. Nest closes the HTTP server on SIGTERM/SIGINT and waits for in-flight
 * requests (long-polls are released at once; a slow upload can take up to its deadline). After
 * `graceMs` the remaining connections are closed so the final checkpoint and the log's fsync still
 * run: an acknowledged write is in the log either way, nothing is lost by cutting a request short.
 */
export function boundShutdown(app: NestFastifyApplication, graceMs: number): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      const timer = setTimeout(() => {
        new Logger('Shutdown').warn(`requests still open after ${graceMs} ms: closing their connections`);
        (app.getHttpServer() as Server).closeAllConnections();
      }, graceMs);
      timer.unref();
    });
  }
}
