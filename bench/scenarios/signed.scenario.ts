import { generateSigningKey, SigningKey } from '../../src/identity/signing-key';
import { parseDidKey } from '../../src/identity/did-key';
import { decodeSignature } from '../../src/identity/signature-encoding';
import { verifyEd25519 } from '../../src/identity/ed25519-verifier';
import { withServers } from '../lib/with-servers';
import { compare } from '../lib/compare';
import { BenchOptions, Row, Scenario } from '../lib/context';

const TEXT = 'signed benchmark write';

/** Microseconds one verification costs here (same verifier the service runs), median of 5 batches. */
function verifyMicros(key: SigningKey): number {
  const payload = `room|1|${TEXT}`;
  const pk = parseDidKey(key.did);
  const sig = decodeSignature(key.sign(payload));
  const message = Buffer.from(payload);
  const batches: number[] = [];
  for (let b = 0; b < 5; b++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < 2000; i++) verifyEd25519(pk, message, sig);
    batches.push(Number(process.hrtime.bigint() - started) / 1e3 / 2000);
  }
  return batches.sort((a, b) => a - b)[2];
}

/** Requests each key gets signed before the load starts; beyond them the generator signs as it goes. */
const PRESIGNED_PER_KEY = 400;

/**
 * Signed bodies made ahead of the run. A real signer is another machine; signing inside the load
 * generator would take CPU from the server on this 2-core box and understate its rate.
 */
class PresignedBodies {
  private readonly queues = new Map<SigningKey, { room: string; body: string }[]>();
  private readonly nonces = new Map<SigningKey, number>();

  constructor(keys: readonly SigningKey[]) {
    keys.forEach((key, index) => {
      this.nonces.set(key, Date.now() * 1000 + index * 1_000_000);
      this.queues.set(
        key,
        Array.from({ length: PRESIGNED_PER_KEY }, () => this.sign(key)),
      );
    });
  }

  next(key: SigningKey): { room: string; body: string } {
    return this.queues.get(key)!.shift() ?? this.sign(key);
  }

  private sign(key: SigningKey): { room: string; body: string } {
    const nonce = this.nonces.get(key)! + 1;
    this.nonces.set(key, nonce);
    const room = `signed${nonce % 16}`;
    const body = JSON.stringify({
      did: key.did,
      sig: key.sign(`${room}|${nonce}|${TEXT}`),
      nonce: String(nonce),
      text: TEXT,
    });
    return { room, body };
  }
}

/**
 * (4) Signed writes: POST with did, sig and a strictly increasing nonce per key (one key per
 * connection, signed by the load generator as it goes). Goals: ≥ 5,000 signed writes/s, and Ed25519
 * verification under 25 % of a signed write's CPU time (verify cost × rate ÷ the server's CPU).
 */
export const signedScenario: Scenario = {
  name: 'signed',
  async run(options: BenchOptions): Promise<Row[]> {
    return withServers('signed', {}, async (service, baseline) => {
      const keys = Array.from({ length: 256 }, () => generateSigningKey());
      const signer = new PresignedBodies(keys);
      let assigned = 0;
      const requests = [
        {
          setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) => {
            // One key per connection: a key's nonces then arrive in the order they were signed.
            if (context.key === undefined) context.key = keys[assigned++ % keys.length];
            const { room, body } = signer.next(context.key as SigningKey);
            return { ...request, method: 'POST', path: `/r/${room}`, body };
          },
        },
      ];
      const sampleBody = JSON.stringify({ did: keys[0].did, sig: keys[0].sign('x'), nonce: '1', text: TEXT });
      const rows = await compare(
        {
          scenario: 'signed POST write',
          service: { server: service, load: { url: service.url, requests: requests as never } },
          baseline: {
            server: baseline,
            load: {
              url: `${baseline.url}/json`,
              method: 'POST',
              body: sampleBody,
              headers: { 'content-type': 'application/json' },
            },
          },
          goalRps: 5_000,
        },
        options,
      );
      const signed = rows[1];
      const micros = verifyMicros(keys[0]);
      const share = signed.rps && signed.cpu ? ((micros / 1e6) * signed.rps) / signed.cpu : NaN;
      rows.push({
        scenario: 'verify share of signed-write CPU',
        target: 'service',
        ratio: share,
        goal: '< 0.25',
        met: share < 0.25,
        note: `verify ${micros.toFixed(0)} µs each; server CPU ${(signed.cpu! * 100).toFixed(0)} % at ${signed.rps!.toFixed(0)}/s`,
      });
      return rows;
    });
  },
};
