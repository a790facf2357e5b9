import { jetstreamManager, JetStreamManager } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { archiveBucket } from '../../src/log/nats/archive/stream-archive';
import { freePort } from '../support/free-port';
import { deleteStream, NATS_URL, snapshottingNodeEnv, uniqueStreamName } from '../support/nats-stream';
import { builtNatsTool } from '../support/built-tool';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';
import { until } from '../support/until';

/**
 * Issue 27's archive through the service (CHAT_NATS_ARCHIVE=object): writes, the snapshots they
 * lead to, and the purges behind those, archive first; then the built tools read the whole history
 * from offset 0: every record once, in order, the archived ones included.
 */
describe('a service node archiving what it purges (real nats-server, built tools)', () => {
  const stream = uniqueStreamName('archive-node');
  const dir = makeTempDir('nats-archive-node');
  let node: ServiceProcess | undefined;
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    nc = await connect({ servers: [NATS_URL] });
    jsm = await jetstreamManager(nc);
  });

  afterAll(async () => {
    await node?.stop();
    await nc?.close();
    await deleteStream(stream);
    dir.remove();
  });

  it('purges only what it archived, and events/verify --nats read every record from offset 0', async () => {
    const metricsPort = await freePort();
    node = await ServiceProcess.start({
      ...snapshottingNodeEnv(dir.path, stream),
      CHAT_NATS_ARCHIVE: 'object',
      CHAT_NATS_ARCHIVE_CHUNK_BYTES: '1024',
      CHAT_METRICS_PORT: String(metricsPort),
    });
    const texts: string[] = [];
    const firstSeq = async () => (await jsm.streams.info(stream)).state.first_seq;
    for (let i = 0; i < 300 && (await firstSeq()) < 40; i++) {
      const text = `archived message ${i}`;
      const response = await fetch(node.url(`/r/room-${i % 3}?format=json`), {
        method: 'POST',
        body: JSON.stringify({ from: 'archivist', text }),
      });
      expect(response.status).toBe(200);
      texts.push(text);
    }
    await until('a purge past offset 40', async () => ((await firstSeq()) >= 40 ? true : undefined), 60_000);
    const { last_seq: last, first_seq: first } = (await jsm.streams.info(stream)).state;

    const events = await builtNatsTool('events', ['--nats', stream]);
    expect(events.code).toBe(0);
    const lines = events.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { offset: number; record?: string });
    // Every record from offset 0, the purged ones among them: none skipped, none twice.
    expect(lines.map((line) => line.offset)).toEqual([...Array(last).keys()]);
    const printed = lines
      .filter((line) => line.record !== undefined)
      .map((line) => JSON.parse(line.record!).text);
    for (const text of texts.slice(0, first)) expect(printed).toContain(text);

    const verify = await builtNatsTool('verify', ['--nats', stream]);
    expect(verify.out).toContain(
      `verify: OK: stream ${stream}: ${last} records (${first - 1} from object store ${archiveBucket(stream)})`,
    );
    expect(verify.code).toBe(0);

    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/^chat_nats_archive_failures_total 0$/m);
  }, 120_000);
});
