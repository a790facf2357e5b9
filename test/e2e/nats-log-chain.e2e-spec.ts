import { CheckpointStore } from '../../src/projections/checkpoint-store';
import { LogChainState } from '../../src/projections/log-chain';
import { LogChainAudit } from '../../src/tools/verify/log-chain-audit';
import { deleteStream, NATS_URL, storedMessages, uniqueStreamName } from '../support/nats-stream';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';
import { until } from '../support/until';
import { postAll } from '../support/unsound-record';

/** Every record of `stream` as [offset, stored bytes], read raw from NATS. */
async function streamRecords(stream: string): Promise<Array<[number, Buffer]>> {
  return (await storedMessages(stream)).map(({ seq, data }) => [seq - 1, data]);
}

/**
 * The whole log's hash chain (issue 29) on the NATS backend. `npm run verify` reads a data directory's
 * own log segments, which a NATS node does not have (its log is the stream), so the chain is checked
 * here the way verify checks it (LogChainAudit), fed with the stream's records.
 */
describe('the log chain on two NATS nodes (real nats-server)', () => {
  const stream = uniqueStreamName('logchain');
  const dirs = [makeTempDir('nats-chain-a'), makeTempDir('nats-chain-b')];
  const nodes: ServiceProcess[] = [];

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await deleteStream(stream);
    for (const dir of dirs) dir.remove();
  });

  it('both nodes reach the same chain value at the same offset, and every checkpoint of each verifies against the stream', async () => {
    for (const dir of dirs) {
      nodes.push(
        await ServiceProcess.start({
          CHAT_ROOT: dir.path,
          CHAT_LOG_BACKEND: 'nats',
          CHAT_NATS_URL: NATS_URL,
          CHAT_NATS_STREAM: stream,
          CHAT_CHECKPOINT_EVENTS: '9',
          CHAT_CHECKPOINTS_KEEP: '100',
          CHAT_SNAPSHOT_SECONDS: '0',
        }),
      );
    }
    const [a, b] = nodes;
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postAll(
          i % 2 === 0 ? a : b,
          `chain-${i % 3}`,
          Array.from({ length: 20 }, (_, n) => `writer ${i} message ${n}`),
        ),
      ),
    );
    const head = (await streamRecords(stream)).length;
    // Both applied everything before they stop: their final checkpoints are then both at the head.
    await until('both nodes at the head', async () => {
      const texts = await Promise.all(
        nodes.map(async (node) => (await fetch(node.url('/r/chain-0/export'))).text()),
      );
      return texts[0] === texts[1] ? true : undefined;
    });
    await Promise.all(nodes.splice(0).map((node) => node.stop()));

    const records = await streamRecords(stream);
    expect(records).toHaveLength(head);
    const chains = await Promise.all(
      dirs.map(async (dir) => {
        const store = new CheckpointStore(dir.path);
        const byOffset = new Map<number, string>();
        for (const offset of store.offsets()) {
          byOffset.set(offset, ((await store.read(offset))!.projections.logChain as LogChainState).hash);
        }
        return byOffset;
      }),
    );
    expect(chains[0].get(head)).toBeDefined();
    expect(chains[1].get(head)).toBe(chains[0].get(head));
    for (const [offset, hash] of chains[0])
      if (chains[1].has(offset)) expect(chains[1].get(offset)).toBe(hash);

    for (const dir of dirs) {
      const audit = await LogChainAudit.open(dir.path);
      for (const [offset, payload] of records) audit.record(offset, payload);
      audit.finish(records.length);
      expect(audit.findings).toEqual([]);
      expect(audit.checked).toBe(new CheckpointStore(dir.path).offsets().length);
      expect(audit.signers.size).toBe(1);
    }
  }, 180_000);
});
