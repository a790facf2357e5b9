import { JetStreamEventLog } from '../../../src/log/nats/jetstream-event-log';
import { formatStatus } from '../../../src/tools/nats-status.cli';
import { natsStatus, recordHash } from '../../../src/tools/nats-status';
import { freeLoopbackPort, NatsServerProcess } from '../../support/nats-server-process';
import { natsLogOptions } from '../../support/nats-stream';
import { makeTempDir } from '../../support/temp-dir';

describe('npm run nats-status: what each NATS server holds for the stream', () => {
  const store = makeTempDir('nats-status-store');
  let server: NatsServerProcess;

  afterAll(async () => {
    await server?.kill9();
    store.remove();
  });

  it('names the server, its version and role, its own first and last sequence and the hash of its last record', async () => {
    const monitorPort = await freeLoopbackPort();
    server = new NatsServerProcess({
      name: 'status-n0',
      port: await freeLoopbackPort(),
      storeDir: store.path,
      monitorPort,
    });
    await server.start();
    const options = natsLogOptions('status', { servers: [server.url] });
    const log = new JetStreamEventLog(options);
    await log.open();
    try {
      await log.append([Buffer.from('one'), Buffer.from('two')], {
        scopes: [
          ['r', 'lobby'],
          ['r', 'lobby'],
        ],
      });
      await log.append([Buffer.from('three')], { scopes: [['n', 'topic', 'x']] });
    } finally {
      await log.close();
    }

    const status = await natsStatus(options, [`http://127.0.0.1:${monitorPort}`]);
    expect(status).toMatchObject({
      stream: 'status',
      leader: 'status-n0',
      replicas: 1,
      firstSeq: 1,
      lastSeq: 3,
    });
    expect(status.servers).toEqual([
      expect.objectContaining({
        name: 'status-n0',
        version: '2.15.1',
        role: 'leader',
        firstSeq: 1,
        lastSeq: 3,
        record: {
          seq: 3,
          subject: 'chat.status.v2.n:topic:x',
          hash: recordHash('chat.status.v2.n:topic:x', Buffer.from('three')),
        },
      }),
    ]);
    const lines = formatStatus(status);
    expect(lines[0]).toBe('stream status: 1 replica(s), leader status-n0, first 1, last 3');
    expect(lines[1]).toMatch(
      /^ {2}status-n0 nats:\/\/127\.0\.0\.1:\d+ nats-server 2\.15\.1: leader; holds 1\.\.3; record 3 [0-9a-f]{16} \(chat\.status\.v2\.n:topic:x\)$/,
    );
  });

  it('reports a server it cannot reach, and the stream from the ones it can', async () => {
    const down = `nats://127.0.0.1:${await freeLoopbackPort()}`;
    const status = await natsStatus(
      natsLogOptions('status', { servers: [server.url, down], timeoutMs: 1000 }),
      [],
    );
    expect(status.lastSeq).toBe(3);
    expect(status.servers[1]).toMatchObject({ url: down, problem: expect.stringMatching(/^unreachable: /) });
    expect(status.servers[0].record?.seq).toBe(3);
  });
});
