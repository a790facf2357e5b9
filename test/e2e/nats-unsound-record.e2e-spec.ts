import { deleteStream, NATS_URL, uniqueStreamName } from '../support/nats-stream';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';
import { expectForkDeclared, postAll, storeUnsoundMessage, UNSOUND } from '../support/unsound-record';

describe('a stored record whose precondition did not hold where the stream put it', () => {
  const stream = uniqueStreamName('unsound');
  const dirs: Array<{ path: string; remove(): void }> = [];
  const nodes: ServiceProcess[] = [];
  // Snapshots on (the default): the second node may restore one the first took, which carries the
  // room's last record (its scope heads), so it checks the unsound record as a full replay would.
  const start = async (): Promise<ServiceProcess> => {
    const dir = makeTempDir('nats-unsound');
    dirs.push(dir);
    return ServiceProcess.start({
      CHAT_ROOT: dir.path,
      CHAT_LOG_BACKEND: 'nats',
      CHAT_NATS_URL: NATS_URL,
      CHAT_NATS_STREAM: stream,
    });
  };

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await deleteStream(stream);
    for (const dir of dirs) dir.remove();
  });

  it('is never folded: a running node stops there and refuses writes, a new node refuses to start', async () => {
    const node = await start();
    nodes.push(node);
    await postAll(node, 'twice', ['message 1', 'message 2']);
    await storeUnsoundMessage(stream, 'twice', 2);

    await expectForkDeclared(node, 'twice', ['message 1', 'message 2']);

    const error = await start().catch((e: Error) => e);
    if (error instanceof ServiceProcess) nodes.push(error); // started after all: stopped by afterAll
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/process exited with 1/);
    expect((error as Error).message).toContain(UNSOUND);
  }, 300_000);
});
