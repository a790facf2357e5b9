/**
 * The client CPU of one JetStream publish acknowledgement awaited through the NATS client's
 * `request` (a timer, several promises and an Error per request) against AckRequests (one inbox
 * subscription, one timer), in one run, rounds alternating. Starts its own nats-server.
 *
 *   node -r ./test/support/ts-register.js bench/nats-ack-requests.bench.ts [--rounds 6] [--requests 20000]
 *
 * Each round publishes `requests` records to a memory stream, 32 in flight at a time (a writing node
 * on 32 connections), and reports this process's CPU (user + system) per acknowledged publish.
 */
import { jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { headers, NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { AckRequests } from '../src/log/nats/ack-requests';
import { median } from './lib/stats';
import { startSuiteNats, stopSuiteNats } from '../test/support/global-nats';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const rounds = option('rounds', 6);
const requests = option('requests', 20_000);
const IN_FLIGHT = 32;
const TIMEOUT_MS = 5000;
const payload = new TextEncoder().encode(
  'benchmark write with a realistic length of a short agent status update',
);

type Send = (subject: string) => Promise<unknown>;

/** µs of this process's CPU per acknowledged publish. */
async function round(send: Send): Promise<number> {
  const before = process.cpuUsage();
  let next = 0;
  const worker = async () => {
    while (next < requests) await send(`ackbench.${next++ % 1000}`);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

async function main(): Promise<void> {
  const nats = await startSuiteNats();
  let nc: NatsConnection | undefined;
  try {
    const client = await connect({ servers: [nats.url], noAsyncTraces: true });
    nc = client;
    const jsm = await jetstreamManager(client);
    await jsm.streams.add({
      name: 'ackbench',
      subjects: ['ackbench.>'],
      storage: StorageType.Memory,
      retention: RetentionPolicy.Limits,
      max_msgs: 100_000,
    });
    const acks = new AckRequests(client, TIMEOUT_MS);
    const sends: Record<string, Send> = {
      'client request': (subject) =>
        client.request(subject, payload, { headers: headers(), timeout: TIMEOUT_MS }),
      AckRequests: (subject) => acks.request(subject, payload, headers()),
    };
    const names = Object.keys(sends);
    const cost = new Map<string, number[]>(names.map((name) => [name, []]));
    await round(sends[names[0]]); // warm-up
    await round(sends[names[1]]);
    for (let r = 0; r < rounds; r++) {
      for (const name of r % 2 === 0 ? names : [...names].reverse())
        cost.get(name)!.push(await round(sends[name]));
    }
    for (const [name, figures] of cost)
      console.log(
        `${name}: ${median(figures).toFixed(1)} µs per publish (rounds ${figures.map((f) => f.toFixed(1)).join(' ')})`,
      );
  } finally {
    await nc?.close();
    await stopSuiteNats(nats);
  }
}

void main();
