import { StreamInfo } from '@nats-io/jetstream';
import { streamMismatches } from '../../../src/log/nats/stream-spec';
import { natsLogOptions } from '../../support/nats-stream';

/** The settings a stream created by the service has (what ensureStream asks for). */
function createdBy(stream: string, overrides: Record<string, unknown> = {}): StreamInfo {
  const config = {
    name: stream,
    subjects: [`chat.${stream}.v2.*`],
    allow_atomic: true,
    allow_direct: true,
    num_replicas: 1,
    duplicate_window: 120_000_000_000,
    max_bytes: -1,
    max_msgs: -1,
    max_age: 0,
    max_msgs_per_subject: -1,
    discard: 'new',
    retention: 'limits',
    storage: 'file',
    deny_delete: true,
    ...overrides,
  };
  return { config } as unknown as StreamInfo;
}

describe('stream verification at start-up', () => {
  it('given the stream the configuration creates, then nothing differs', () => {
    expect(streamMismatches(createdBy('s'), natsLogOptions('s'))).toEqual([]);
  });

  it('given an R1 stream and CHAT_NATS_REPLICAS=3, then the line names the setting and the knob', () => {
    expect(streamMismatches(createdBy('s'), natsLogOptions('s', { replicas: 3 }))).toEqual([
      'num_replicas is 1, wanted 3 (CHAT_NATS_REPLICAS)',
    ]);
  });

  it('given a stream that drops history, then every such setting is named', () => {
    const lines = streamMismatches(createdBy('s', { max_age: 3600e9, discard: 'old' }), natsLogOptions('s'));
    expect(lines).toEqual([
      'max_age is 3600000000000, wanted 0 (fixed: history is never dropped)',
      'discard is "old", wanted "new" (fixed: a full stream refuses writes)',
    ]);
  });
});
