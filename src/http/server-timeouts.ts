import { ServerOptions } from 'node:http';
import { AppConfig } from '../config/app-config';

/**
 * Node's request timers (issue 18): Fastify's default `requestTimeout: 0` disables them, so a client
 * could hold a socket open by sending its headers or body a byte a minute. Node checks these timers
 * every `connectionsCheckingInterval` (30 s by default, which would stretch a 15 s timeout to 45 s),
 * so the check runs every second. Headers can never take longer than the whole request.
 */
export function serverTimeouts(config: Pick<AppConfig, 'requestTimeoutSeconds' | 'headersTimeoutSeconds'>): {
  readonly requestTimeout: number;
  readonly http: ServerOptions;
} {
  const requestTimeout = Math.round(config.requestTimeoutSeconds * 1000);
  const headersTimeout = Math.min(requestTimeout, Math.round(config.headersTimeoutSeconds * 1000));
  return {
    requestTimeout,
    // A missing Host is refused by the onRequest hook in the error table's words (installHttpHooks),
    // where Node would answer an empty 400 before any listener saw the request.
    http: { requestTimeout, headersTimeout, connectionsCheckingInterval: 1000, requireHostHeader: false },
  };
}
