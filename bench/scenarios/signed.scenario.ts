import { generateSigningKey, SigningKey } from '../../src/identity/signing-key';
import { parseDidKey } from '../../src/identity/did-key';
import { decodeSignature } from '../../src/identity/signature-encoding';
import { verifyEd25519 } from '../../src/identity/ed25519-verifier';
import { withServers } from '../lib/with-servers';
import { compare } from '../lib/compare';
import { BenchOptions, Row, Scenario } from '../lib/context';
import { PresignedBodies, presignedPerKey } from '../lib/presigned-bodies';
import { floodRows } from './signed-flood';

const TEXT = 'signed benchmark write';

/** Microseconds one verification costs here (same verifier the service runs), median of 5 batches. */
export function verifyMicros(key: SigningKey): number {
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

/**
 * (4) Signed writes: POST with did, sig and a strictly increasing nonce per key (one key per
 * connection). Measured in the same run: the same POST unsigned, and one verification alone, which
 * give the rate the unsigned path would reach if each write also paid exactly one verification on
 * the event loop. Goals: ≥ 5,000 signed writes/s, and ≥ 0.8 × that projected rate (no overhead beyond
 * the verification itself). Then (4b) room-read p99 with and without a concurrent signed flood.
 */
export const signedScenario: Scenario = {
  name: 'signed',
  async run(options: BenchOptions): Promise<Row[]> {
    // One key per connection: each key's nonces then arrive in the order they were signed.
    const keys = Array.from({ length: options.connections }, () => generateSigningKey());
    const loadSeconds = 2 + options.rounds * options.seconds; // warm-up + rounds
    const rows = await withServers('signed', {}, async (service, baseline): Promise<Row[]> => {
      const signer = new PresignedBodies(keys, TEXT, presignedPerKey(keys.length, loadSeconds));
      const sampleBody = JSON.stringify({ did: keys[0].did, sig: keys[0].sign('x'), nonce: '1', text: TEXT });
      const baselineLoad = {
        server: baseline,
        load: {
          url: `${baseline.url}/json`,
          method: 'POST' as const,
          body: sampleBody,
          headers: { 'content-type': 'application/json' },
        },
      };
      const signedRows = await compare(
        {
          scenario: 'signed POST write',
          service: { server: service, load: { url: service.url, requests: signer.requests(keys) as never } },
          baseline: baselineLoad,
          goalRps: 5_000,
        },
        options,
      );
      let n = 0;
      const unsignedRequests = [
        {
          setupRequest: (request: Record<string, unknown>) => ({
            ...request,
            method: 'POST',
            path: `/r/signed${n % 16}`,
            body: JSON.stringify({ from: 'bench', text: `${TEXT} ${n++}` }),
          }),
        },
      ];
      const unsignedRows = await compare(
        {
          scenario: 'unsigned POST write (same rooms)',
          service: {
            server: service,
            load: {
              url: service.url,
              requests: unsignedRequests as never,
              headers: { 'content-type': 'application/json' },
            },
          },
          baseline: baselineLoad,
        },
        options,
      );
      const signed = signedRows[1];
      const unsigned = unsignedRows[1];
      const micros = verifyMicros(keys[0]);
      const projected = 1 / (1 / unsigned.rps! + micros / 1e6);
      const ratio = signed.rps! / projected;
      return [
        ...signedRows,
        ...unsignedRows,
        {
          scenario: 'signed ÷ (unsigned + one verify)',
          target: 'service',
          ratio,
          goal: '≥ 0.8',
          met: ratio >= 0.8,
          note: `verify ${micros.toFixed(0)} µs each; unsigned ${unsigned.rps!.toFixed(0)}/s + one verify → ${projected.toFixed(0)}/s; signed ${signed.rps!.toFixed(0)}/s at CPU ${(signed.cpu! * 100).toFixed(0)} %`,
        },
      ];
    });
    return [...rows, ...(await floodRows(keys, TEXT, options))];
  },
};
