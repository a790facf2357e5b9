import { connect } from '@nats-io/transport-node';
import { authOptions } from './nats-connection';
import { NatsVersionError } from './nats-log.errors';
import { NatsLogOptions } from './nats-log.options';

/** The first nats-server release with atomic batch publish and the fixed replica catch-up (2.12.0). */
const MINIMUM: readonly [number, number] = [2, 12];

/** What a server's INFO says about it. */
export interface ServerInfo {
  readonly name: string;
  readonly url: string;
  readonly version: string;
}

/**
 * Why this service cannot use a server, or undefined. Before 2.12 nats-server has no atomic batch
 * publish (`allow_atomic`), which every multi-record write needs, and — what made a 3-server cluster
 * lose acknowledged writes in issue 26 — a restarted replica that still needed catch-up could be
 * elected stream leader, rewinding the stream by thousands of records.
 */
export function versionProblem(server: ServerInfo, replicas: number): string | undefined {
  const [major, minor] = server.version.split(/[.-]/).map(Number);
  if (major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1])) return undefined;
  const why = ['no atomic batch publish (allow_atomic), which multi-record writes need'];
  if (replicas > 1) {
    why.push(
      'with CHAT_NATS_REPLICAS > 1, a replica that needs catch-up can be elected stream leader and ' +
        'acknowledged writes are lost (nats-server issue fixed in 2.12)',
    );
  }
  return `${server.name} at ${server.url} runs nats-server ${server.version}: ${why.join('; ')}`;
}

/**
 * Start-up: asks every server in CHAT_NATS_URL for its INFO (a short connection each) and refuses to
 * start when one runs a version this service cannot use. A server that does not answer now is
 * skipped (the main connection found at least one); servers reached later are checked on reconnect.
 */
export async function assertServerVersions(options: NatsLogOptions): Promise<ServerInfo[]> {
  const seen: ServerInfo[] = [];
  for (const url of options.servers) {
    try {
      const nc = await connect({
        servers: [url],
        timeout: options.timeoutMs,
        reconnect: false,
        name: `agent-chat ${options.stream} version check`,
        ...authOptions(options.credentials),
      });
      seen.push({ name: nc.info?.server_name ?? url, url, version: nc.info?.version ?? '0.0.0' });
      await nc.close();
    } catch (error) {
      options.logger?.warn(
        `NATS server ${url} did not answer the version check: ${(error as Error).message}`,
      );
    }
  }
  const problems = seen.flatMap((server) => versionProblem(server, options.replicas) ?? []);
  if (problems.length > 0) throw new NatsVersionError(problems);
  return seen;
}
