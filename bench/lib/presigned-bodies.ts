import { SigningKey } from '../../src/identity/signing-key';

/** A signed-write rate no run here reaches: bodies are presigned for it (beyond them the generator signs as it goes). */
const MAX_SIGNED_RATE = 12_000;

/** Bodies to presign per key for `seconds` of load spread over `keys` connections. */
export function presignedPerKey(keys: number, seconds: number): number {
  return Math.ceil((MAX_SIGNED_RATE * seconds) / keys);
}

/**
 * Signed message bodies made ahead of the run (one key per connection), `rooms` rooms named `signed0…`. A real signer is another
 * machine; signing inside the load generator would take CPU from the server on this 2-core box and
 * understate its rate.
 */
export class PresignedBodies {
  private readonly queues = new Map<SigningKey, { room: string; body: string }[]>();
  private readonly nonces = new Map<SigningKey, number>();

  constructor(
    keys: readonly SigningKey[],
    private readonly text: string,
    perKey: number,
    private readonly rooms = 16,
  ) {
    keys.forEach((key, index) => {
      this.nonces.set(key, Date.now() * 1000 + index * 1_000_000);
      this.queues.set(
        key,
        Array.from({ length: perKey }, () => this.sign(key)),
      );
    });
  }

  next(key: SigningKey): { room: string; body: string } {
    return this.queues.get(key)!.shift() ?? this.sign(key);
  }

  /** autocannon requests posting these bodies, one key per connection (its nonces then arrive in order). */
  requests(keys: readonly SigningKey[]): Array<Record<string, unknown>> {
    let assigned = 0;
    return [
      {
        setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) => {
          if (context.key === undefined) context.key = keys[assigned++ % keys.length];
          const { room, body } = this.next(context.key as SigningKey);
          return { ...request, method: 'POST', path: `/r/${room}`, body };
        },
      },
    ];
  }

  private sign(key: SigningKey): { room: string; body: string } {
    const nonce = this.nonces.get(key)! + 1;
    this.nonces.set(key, nonce);
    const room = `signed${nonce % this.rooms}`;
    const body = JSON.stringify({
      did: key.did,
      sig: key.sign(`${room}|${nonce}|${this.text}`),
      nonce: String(nonce),
      text: this.text,
    });
    return { room, body };
  }
}
