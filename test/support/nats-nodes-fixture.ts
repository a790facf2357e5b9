import { jetstreamManager, JetStreamManager } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { deleteStream, NATS_URL, uniqueStreamName } from './nats-stream';
import { ServiceProcess } from './service-process';
import { makeTempDir } from './temp-dir';

/** What a NATS e2e file shares across its tests: see natsNodesFixture. */
export interface NatsNodesFixture {
  readonly stream: string;
  readonly dirs: ReadonlyArray<ReturnType<typeof makeTempDir>>;
  /** Every service node the file started: push each one, the fixture stops them all. */
  readonly nodes: ServiceProcess[];
  /** A manager connection for reading the stream's state (ready inside tests). */
  readonly jsm: JetStreamManager;
}

/**
 * A stream of its own, one temp data directory per name, and a manager connection, for a NATS e2e
 * file; after the file every node it pushed is stopped, the connection closed, the stream deleted
 * and the directories removed. Call at the top of a `describe`.
 */
export function natsNodesFixture(prefix: string, dirNames: readonly string[]): NatsNodesFixture {
  const stream = uniqueStreamName(prefix);
  const dirs = dirNames.map((name) => makeTempDir(`nats-${prefix}-${name}`));
  const nodes: ServiceProcess[] = [];
  let nc: NatsConnection | undefined;
  let jsm: JetStreamManager | undefined;

  beforeAll(async () => {
    nc = await connect({ servers: [NATS_URL] });
    jsm = await jetstreamManager(nc);
  });

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await nc?.close();
    await deleteStream(stream);
    for (const dir of dirs) dir.remove();
  });

  return {
    stream,
    dirs,
    nodes,
    get jsm(): JetStreamManager {
      if (jsm === undefined) throw new Error('natsNodesFixture: the connection opens in beforeAll');
      return jsm;
    },
  };
}
