import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createServer } from 'node:net';
import { lastLine } from '../support/notes-kit';
import { makeTempDir } from '../support/temp-dir';
import { ServiceProcess } from '../support/service-process';
import { deleteStream, NATS_URL, uniqueStreamName } from '../support/nats-stream';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function post(service: ServiceProcess, room: string, text: string): Promise<number> {
  const response = await fetch(service.url(`/r/${room}?format=json`), {
    method: 'POST',
    body: JSON.stringify({ from: 'nats-e2e', text }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { posted: { seq: number } }).posted.seq;
}

async function exported(service: ServiceProcess, room: string): Promise<Buffer> {
  const response = await fetch(service.url(`/r/${room}/export`));
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function note(service: ServiceProcess, ns: string, key: string): Promise<string> {
  return lastLine(await (await fetch(service.url(`/kv/${ns}/${key}`))).text());
}

describe('the service on the JetStream log (CHAT_LOG_BACKEND=nats, real nats-server)', () => {
  const stream = uniqueStreamName('e2e');
  const roots: Array<{ path: string; remove(): void }> = [];
  let service: ServiceProcess | undefined;
  const env = (root: string, extra: Record<string, string> = {}) => ({
    CHAT_ROOT: root,
    CHAT_LOG_BACKEND: 'nats',
    CHAT_NATS_URL: NATS_URL,
    CHAT_NATS_STREAM: stream,
    ...extra,
  });
  const freshRoot = (): string => {
    const dir = makeTempDir('nats-e2e');
    roots.push(dir);
    return dir.path;
  };

  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });
  afterAll(async () => {
    await deleteStream(stream);
    for (const dir of roots) dir.remove();
  });

  it('given NATS unreachable at start, then the process exits non-zero naming the servers', async () => {
    const url = `nats://127.0.0.1:${await closedPort()}`;
    const error = await ServiceProcess.start(
      env(freshRoot(), { CHAT_NATS_URL: url, CHAT_NATS_TIMEOUT_MS: '1000' }),
    ).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/process exited with 1/);
    expect((error as Error).message).toContain(`NATS unreachable at ${url} (CHAT_NATS_URL)`);
  });

  it('given a stream whose settings differ, then start-up fails naming the setting', async () => {
    const other = uniqueStreamName('e2e-mismatch');
    const nc = await connect({ servers: NATS_URL });
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: other, subjects: [`chat.${other}.>`], max_bytes: 1_000_000 });
      const error = await ServiceProcess.start(env(freshRoot(), { CHAT_NATS_STREAM: other })).catch(
        (e: Error) => e,
      );
      expect((error as Error).message).toMatch(/process exited with 1/);
      expect((error as Error).message).toContain('max_bytes is 1000000, wanted -1 (CHAT_NATS_MAX_BYTES)');
    } finally {
      await deleteStream(other);
      await nc.close();
    }
  });

  it('writes and reads, survives a restart, and a node from an empty CHAT_ROOT exports identical bytes', async () => {
    const root = freshRoot();
    service = await ServiceProcess.start(env(root));
    const seqs: number[] = [];
    for (let i = 0; i < 12; i++)
      seqs.push(await post(service, i % 2 ? 'alpha' : 'beta', `message number ${i}`));
    expect(seqs).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    const put = await fetch(service.url('/kv/nats-e2e/color'), {
      method: 'POST',
      body: JSON.stringify({ value: 'teal' }),
    });
    expect(put.status).toBe(200);
    expect(await note(service, 'nats-e2e', 'color')).toBe('teal');
    const manifest = await (await fetch(service.url('/.well-known/agent.json'))).text();
    expect(manifest).toContain('budgets, the long-poll slots and the duplicate filter are kept per node');
    const alpha = await exported(service, 'alpha');
    expect(alpha.toString().trimEnd().split('\n')).toHaveLength(6);
    await service.stop();

    // Same CHAT_ROOT: checkpoint + the stream's tail; seqs continue.
    service = await ServiceProcess.start(env(root));
    expect((await exported(service, 'alpha')).equals(alpha)).toBe(true);
    expect(await post(service, 'alpha', 'after the restart')).toBe(7);
    const alphaAfter = await exported(service, 'alpha');
    const beta = await exported(service, 'beta');
    await service.stop();

    // Empty CHAT_ROOT: everything comes from the stream.
    service = await ServiceProcess.start(env(freshRoot()));
    expect((await exported(service, 'alpha')).equals(alphaAfter)).toBe(true);
    expect((await exported(service, 'beta')).equals(beta)).toBe(true);
    expect(await note(service, 'nats-e2e', 'color')).toBe('teal');
    expect(await post(service, 'beta', 'from the fresh node')).toBe(7);
  }, 120_000); // three starts in a row: ~12 s each on a loaded 2-core machine
});
