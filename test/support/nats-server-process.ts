import { ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { natsServerBinary } from './nats-binary';

/** One private nats-server with JetStream (never the shared one on 4222), on loopback ports the test owns. */
export interface NatsServerSpec {
  readonly name: string;
  readonly port: number;
  readonly storeDir: string;
  /** The HTTP monitoring port (`-m`), when the test reads /varz or /jsz. */
  readonly monitorPort?: number;
  /** Cluster members: this server's route port and every member's route URL. */
  readonly cluster?: { readonly name: string; readonly port: number; readonly routes: readonly string[] };
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A loopback port the kernel just handed out and nobody listens on (bound, then released): for
 * servers that must come back on the same port after a restart, where `-p -1` would move them.
 */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A nats-server child process; `kill9` and `start` again (same store) simulate a crash and a restart. */
export class NatsServerProcess {
  private child: ChildProcess | undefined;
  private output = '';

  constructor(readonly spec: NatsServerSpec) {}

  get url(): string {
    return `nats://127.0.0.1:${this.spec.port}`;
  }

  async start(): Promise<void> {
    const { name, port, storeDir, cluster, monitorPort } = this.spec;
    const args = ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir, '--server_name', name];
    if (monitorPort !== undefined) args.push('-m', String(monitorPort));
    if (cluster) {
      args.push('--cluster_name', cluster.name, '--cluster', `nats://127.0.0.1:${cluster.port}`);
      args.push('--routes', cluster.routes.join(','));
    }
    this.output = '';
    const child = spawn(natsServerBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child = child;
    const deadline = Date.now() + 15_000;
    while (!(await accepting(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`nats-server ${name} did not start:\n${this.output.slice(-2000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** SIGKILL this server only (by its own pid) and wait for it to be gone. */
  async kill9(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
