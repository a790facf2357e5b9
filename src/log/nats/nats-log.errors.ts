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
