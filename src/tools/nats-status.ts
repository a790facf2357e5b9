import { jetstreamManager, StreamInfo } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { createHash } from 'node:crypto';
import { authOptions } from '../log/nats/nats-connection';
import { NatsLogOptions } from '../log/nats/nats-log.options';

/** One server's view of the stream, as far as it could be read. */
export interface ServerStatus {
  readonly url: string;
  readonly name: string;
  readonly version: string;
  /** leader, replica, or not a replica of the stream (from the leader's stream info). */
  readonly role: 'leader' | 'replica' | 'none' | '?';
  /** The leader's view of this replica: current, raft entries behind, offline. */
  readonly current?: boolean;
  readonly lag?: number;
  readonly offline?: boolean;
  /** This server's own store (its monitoring endpoint, `--monitor`). */
  readonly firstSeq?: number;
  readonly lastSeq?: number;
  /** The record at `lastSeq` (or the leader's last) read through this server: sequence and hash. */
  readonly record?: { readonly seq: number; readonly subject: string; readonly hash: string };
  readonly problem?: string;
}

export interface StreamStatus {
  readonly stream: string;
  readonly leader?: string;
  readonly replicas?: number;
  readonly firstSeq?: number;
  readonly lastSeq?: number;
  readonly servers: readonly ServerStatus[];
  readonly problem?: string;
}

/** sha256 over the subject and the payload, first 16 hex digits: equal records, equal hashes. */
export function recordHash(subject: string, data: Uint8Array): string {
  return createHash('sha256').update(subject).update('\n').update(data).digest('hex').slice(0, 16);
}

/** A server's monitoring endpoint: its name and its own store's state of the stream. */
async function monitored(
  url: string,
  stream: string,
): Promise<{ name: string; first: number; last: number } | undefined> {
  const varz = (await (await fetch(`${url}/varz`, { signal: AbortSignal.timeout(5000) })).json()) as {
    server_name: string;
  };
  const jsz = (await (
    await fetch(`${url}/jsz?accounts=true&streams=true`, { signal: AbortSignal.timeout(5000) })
  ).json()) as {
    account_details?: Array<{
      stream_detail?: Array<{ name: string; state: { first_seq: number; last_seq: number } }>;
    }>;
  };
  for (const account of jsz.account_details ?? []) {
    const found = account.stream_detail?.find((detail) => detail.name === stream);
    if (found) return { name: varz.server_name, first: found.state.first_seq, last: found.state.last_seq };
  }
  return { name: varz.server_name, first: Number.NaN, last: Number.NaN };
}

async function connectTo(url: string, options: NatsLogOptions): Promise<NatsConnection> {
  return connect({
    servers: [url],
    timeout: options.timeoutMs,
    reconnect: false,
    name: `agent-chat ${options.stream} nats-status`,
    ...authOptions(options.credentials),
  });
}

/**
 * What each NATS server holds for the stream (issue 26): per server its version, its role and lag
 * as the stream leader reports them, its own first and last sequence (from its monitoring endpoint,
 * when given) and the hash of the record at that last sequence read through a connection to that
 * server (a direct get, which NATS answers from the replica on the server the request arrives at).
 * Servers whose hashes differ at the same sequence hold different histories.
 */
export async function natsStatus(
  options: NatsLogOptions,
  monitors: readonly string[],
): Promise<StreamStatus> {
  const stores = new Map<string, { first: number; last: number }>();
  for (const url of monitors) {
    const view = await monitored(url, options.stream).catch(() => undefined);
    if (view) stores.set(view.name, view);
  }
  let info: StreamInfo | undefined;
  let problem: string | undefined;
  const all = await connect({
    servers: [...options.servers],
    timeout: options.timeoutMs,
    ...authOptions(options.credentials),
  });
  try {
    info = await (await jetstreamManager(all, { timeout: options.timeoutMs })).streams.info(options.stream);
  } catch (error) {
    problem = `no stream info (no leader, or no such stream): ${(error as Error).message}`;
  } finally {
    await all.close();
  }
  const servers: ServerStatus[] = [];
  for (const url of options.servers) servers.push(await serverStatus(url, options, info, stores));
  return {
    stream: options.stream,
    leader: info?.cluster?.leader,
    replicas: info?.config.num_replicas,
    firstSeq: info?.state.first_seq,
    lastSeq: info?.state.last_seq,
    servers,
    problem,
  };
}

async function serverStatus(
  url: string,
  options: NatsLogOptions,
  info: StreamInfo | undefined,
  stores: ReadonlyMap<string, { first: number; last: number }>,
): Promise<ServerStatus> {
  let nc: NatsConnection;
  try {
    nc = await connectTo(url, options);
  } catch (error) {
    return { url, name: '?', version: '?', role: '?', problem: `unreachable: ${(error as Error).message}` };
  }
  try {
    const name = nc.info?.server_name ?? url;
    const replica = info?.cluster?.replicas?.find((r) => r.name === name);
    const leader = info?.cluster?.leader === name || (info !== undefined && info.cluster === undefined);
    const role = leader ? 'leader' : replica ? 'replica' : info ? 'none' : '?';
    const store = stores.get(name);
    const seq = store?.last ?? info?.state.last_seq ?? 0;
    let record: ServerStatus['record'];
    if (seq > 0 && role !== 'none') {
      const jsm = await jetstreamManager(nc, { timeout: options.timeoutMs });
      const stored = await jsm.direct.getMessage(options.stream, { seq }).catch(() => null);
      if (stored) record = { seq, subject: stored.subject, hash: recordHash(stored.subject, stored.data) };
    }
    return {
      url,
      name,
      version: nc.info?.version ?? '?',
      role,
      current: replica?.current,
      lag: replica?.lag,
      offline: replica?.offline,
      firstSeq: store?.first,
      lastSeq: store?.last,
      record,
    };
  } finally {
    await nc.close();
  }
}
