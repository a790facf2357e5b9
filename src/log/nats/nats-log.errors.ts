import { LogUnavailableError } from '../log.errors';

/** Start-up: no NATS server answered. The message names the servers and the knob that lists them. */
export class NatsUnreachableError extends Error {
  constructor(servers: readonly string[], cause: string) {
    super(`NATS unreachable at ${servers.join(', ')} (CHAT_NATS_URL): ${cause}`);
  }
}

/** Start-up: the existing stream differs from what the configuration asks for; one line per setting. */
export class NatsStreamMismatchError extends Error {
  constructor(stream: string, mismatches: readonly string[]) {
    super(
      `JetStream stream ${stream} (CHAT_NATS_STREAM) does not match the configuration; ` +
        `change the setting or the stream:\n  ${mismatches.join('\n  ')}`,
    );
  }
}

/**
 * The stream no longer holds the history this node applied (StreamGuard): the node refuses writes
 * for good, since appending there would fork history. Sticky until an operator recovers and restarts.
 */
export class StreamForkedError extends LogUnavailableError {
  constructor(stream: string, what: string) {
    super(
      `NATS stream ${stream} does not hold the history this node applied: ${what}. Writes are refused ` +
        'until an operator recovers (docs/scaling.md, "Recovering from a rewound stream"; npm run nats-status)',
    );
  }
}

/** Start-up: a server runs a nats-server this service cannot use; names the server and why. */
export class NatsVersionError extends Error {
  constructor(problems: readonly string[]) {
    super(`unsupported nats-server (needs 2.12 or later; docs/scaling.md):\n  ${problems.join('\n  ')}`);
  }
}
