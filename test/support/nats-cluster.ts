import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freeLoopbackPort, NatsServerProcess } from './nats-server-process';
import { makeTempDir } from './temp-dir';

/**
 * Three private nats-servers clustered on loopback ports the kernel handed out (their own stores in
 * temp directories), for fault tests that kill and restart them. `stop` SIGKILLs every one and
 * removes the stores.
 */
export class NatsCluster {
  private constructor(
    readonly servers: readonly NatsServerProcess[],
    private readonly stores: ReadonlyArray<{ remove(): void }>,
    private readonly down = new Set<NatsServerProcess>(),
  ) {}

  static async start(name: string): Promise<NatsCluster> {
    const clientPorts = [await freeLoopbackPort(), await freeLoopbackPort(), await freeLoopbackPort()];
    const routePorts = [await freeLoopbackPort(), await freeLoopbackPort(), await freeLoopbackPort()];
    const routes = routePorts.map((port) => `nats://127.0.0.1:${port}`);
    const stores = clientPorts.map(() => makeTempDir(`${name}-store`));
    const servers = clientPorts.map(
      (port, i) =>
        new NatsServerProcess({
          name: `${name}-n${i}`,
          port,
          storeDir: stores[i].path,
          cluster: { name, port: routePorts[i], routes },
        }),
    );
    const cluster = new NatsCluster(servers, stores);
    await Promise.all(servers.map((server) => server.start()));
    await cluster.waitForJetStream();
    return cluster;
  }

  get urls(): string[] {
    return this.servers.map((server) => server.url);
  }

  byName(name: string): NatsServerProcess | undefined {
    return this.servers.find((server) => server.spec.name === name);
  }

  async kill9(server: NatsServerProcess): Promise<void> {
    this.down.add(server);
    await server.kill9();
  }

  async restart(server: NatsServerProcess): Promise<void> {
    await server.start();
    this.down.delete(server);
  }

  /** JetStream answers once the cluster elected its meta leader. */
  async waitForJetStream(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await this.withManager((jsm) => jsm.getAccountInfo());
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  /** The stream's leader and its replicas as the leader reports them, asked again until answered. */
  async streamState(stream: string, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const info = await this.withManager((jsm) => jsm.streams.info(stream));
        if (info.cluster?.leader) return { info, leader: info.cluster.leader };
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
      if (Date.now() > deadline) throw new Error(`stream ${stream} has no leader`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async stop(): Promise<void> {
    for (const server of this.servers) await server.kill9();
    for (const store of this.stores) store.remove();
  }

  private async withManager<T>(
    work: (jsm: Awaited<ReturnType<typeof jetstreamManager>>) => Promise<T>,
  ): Promise<T> {
    const live = this.servers.filter((server) => !this.down.has(server)).map((server) => server.url);
    const nc = await connect({ servers: live, timeout: 2000 });
    try {
      return await work(await jetstreamManager(nc, { timeout: 2000 }));
    } finally {
      await nc.close();
    }
  }
}
