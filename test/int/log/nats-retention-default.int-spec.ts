import { jetstreamManager, JetStreamManager } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { effectiveRetention, ensureStream, RETENTION_METADATA } from '../../../src/log/nats/stream-spec';
import { deleteStream, NATS_URL, natsLogOptions, uniqueStreamName } from '../../support/nats-stream';

/**
 * Issue 27: a stream created with CHAT_NATS_RETENTION unset is bounded (`snapshot`); a stream that
 * recorded `keep`, or recorded nothing (created before snapshots), stays `keep` when the knob is
 * unset — an upgrade never starts purging history kept for audit.
 */
describe('the retention a stream gets and keeps (real nats-server)', () => {
  const streams: string[] = [];
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const named = (prefix: string) => {
    const stream = uniqueStreamName(prefix);
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    nc = await connect({ servers: [NATS_URL] });
    jsm = await jetstreamManager(nc);
  });

  afterAll(async () => {
    for (const stream of streams) await deleteStream(stream);
    await nc?.close();
  });

  it('given the knob unset, then a new stream records and uses `snapshot`', async () => {
    const options = natsLogOptions(named('retention-new'), { retention: '' });
    const { info } = await ensureStream(jsm, options);
    expect(info.config.metadata?.[RETENTION_METADATA]).toBe('snapshot');
    expect(effectiveRetention(info, options)).toBe('snapshot');
  });

  it('given a stream created with `keep`, then it stays `keep` with the knob unset, and the knob overrides', async () => {
    const stream = named('retention-keep');
    await ensureStream(jsm, natsLogOptions(stream, { retention: 'keep' }));
    const unset = natsLogOptions(stream, { retention: '' });
    const { info } = await ensureStream(jsm, unset);
    expect(info.config.metadata?.[RETENTION_METADATA]).toBe('keep');
    expect(effectiveRetention(info, unset)).toBe('keep');
    expect(effectiveRetention(info, natsLogOptions(stream, { retention: 'snapshot' }))).toBe('snapshot');
  });

  it('given a stream that recorded no retention (created before snapshots), then it is `keep`', async () => {
    const stream = named('retention-none');
    const { info: created } = await ensureStream(jsm, natsLogOptions(stream, { retention: '' }));
    await jsm.streams.update(stream, { ...created.config, metadata: {} });
    const unset = natsLogOptions(stream, { retention: '' });
    const { info } = await ensureStream(jsm, unset);
    expect(info.config.metadata?.[RETENTION_METADATA]).toBeUndefined();
    expect(effectiveRetention(info, unset)).toBe('keep');
  });
});
