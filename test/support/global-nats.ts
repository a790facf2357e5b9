import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsServerBinary } from './nats-binary';

/** The environment variable that carries the suite's nats-server URL to every test file. */
export const TEST_NATS_URL_ENV = 'AGENT_CHAT_TEST_NATS_URL';

const LISTENING = /Listening for client connections on [^:]+:(\d+)/;

interface Running {
  readonly child: ChildProcess;
  readonly storeDir: string;
}

/**
 * One private, current nats-server with JetStream for the whole jest run, on a port the kernel picks
 * (so concurrent runs on one machine never meet), its store in a temp dir removed afterwards. Tests
 * that need their own servers (clusters, outages) still start them with NatsServerProcess.
 */
export async function startSuiteNats(): Promise<Running & { readonly url: string }> {
  const storeDir = mkdtempSync(join(tmpdir(), 'agent-chat-nats-'));
  const child = spawn(natsServerBinary(), ['-js', '-a', '127.0.0.1', '-p', '-1', '-sd', storeDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nats-server did not start:\n${output.slice(-2000)}`));
    }, 15_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
  // Keep draining its output so a chatty server never blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  return { child, storeDir, url: `nats://127.0.0.1:${port}` };
}

/** SIGTERM, then SIGKILL after 5 s; the store goes with it. */
export async function stopSuiteNats({ child, storeDir }: Running): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    await new Promise<void>((resolve) => {
      const escalate = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(escalate);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
  rmSync(storeDir, { recursive: true, force: true });
}
