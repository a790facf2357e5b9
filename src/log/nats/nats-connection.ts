import { readFileSync } from 'node:fs';
import { ConnectionOptions, credsAuthenticator, NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { NatsUnreachableError } from './nats-log.errors';
import { NatsCredentials, NatsLogOptions } from './nats-log.options';

export function authOptions(credentials: NatsCredentials = {}): Partial<ConnectionOptions> {
  if (credentials.credsFile) {
    return { authenticator: credsAuthenticator(readFileSync(credentials.credsFile)) };
  }
  if (credentials.token) return { token: credentials.token };
  if (credentials.user) return { user: credentials.user, pass: credentials.password ?? '' };
  return {};
}

/**
 * Connects once at start-up; an unreachable server is a clear error (the process exits non-zero).
 * Once connected the client reconnects forever: a lost NATS makes writes fail fast (see
 * JetStreamEventLog) while reads keep serving the local projection.
 */
export async function connectNats(options: NatsLogOptions): Promise<NatsConnection> {
  try {
    return await connect({
      servers: [...options.servers],
      timeout: options.timeoutMs,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      // Without this the client builds an Error (with its stack) for every request it sends, to
      // improve async stack traces: ~9 % of the service's CPU under a write load (--cpu-prof).
      // Publish failures are mapped to typed errors with their own messages (publish-failure.ts).
      noAsyncTraces: true,
      name: `agent-chat ${options.stream}`,
      ...authOptions(options.credentials),
    });
  } catch (error) {
    throw new NatsUnreachableError(options.servers, (error as Error).message);
  }
}
