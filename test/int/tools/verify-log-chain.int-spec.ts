import { readFileSync, writeFileSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore } from '../../../src/projections/checkpoint-store';
import { verifyDataDir } from '../../../src/tools/verify/verify-data-dir';
import {
  dataDirCopier,
  Frame,
  frames,
  segments,
  verifyProblems,
  withFrameRewritten,
} from '../../support/data-dir-files';
import { makeTempDir } from '../../support/temp-dir';
import { TestApp } from '../../support/test-app';

/**
 * Issue 29, "the whole log, too": every checkpoint records and signs the log chain at its offset, so
 * tampering with records no room chain holds (note writes) is found, with the offsets it lies in.
 */
const OPTIONS = { logRetention: 'keep', checkpointEvents: 10, checkpointsKeep: 10 } as const;

describe('npm run verify: the log chain (issue 29)', () => {
  const dir = makeTempDir('agent-chat-verify-log-chain');
  let source: string;
  let serviceDid: string;
  const copy = dataDirCopier(dir.path, () => source);
  const logChainProblems = async (root: string): Promise<string[]> =>
    (await verifyProblems(root)).filter((p) => p.includes('log chain'));
  const noteFrames = (segment: string): Frame[] => frames(segment).filter((f) => f.payload.includes('note-'));
  const without = (bytes: Buffer, frame: Frame): Buffer =>
    Buffer.concat([
      bytes.subarray(0, frame.position),
      bytes.subarray(frame.position + 8 + frame.payload.length),
    ]);

  beforeAll(async () => {
    const app = await TestApp.start(OPTIONS);
    for (let i = 0; i < 40; i++) {
      if (i % 3 === 0) await app.getPath(`/kv/audit/k${i}/set/note-${i}`);
      else await app.getPath(`/r/alpha/say/n/message-${i}`);
    }
    serviceDid = (JSON.parse((await app.getPath('/r/alpha/head')).body) as { service_did: string })
      .service_did;
    await app.close({ keepData: true });
    source = app.root;
  });
  afterAll(() => dir.remove());

  it('passes an untouched directory and counts the checkpoints whose log chain it checked', async () => {
    const report = await verifyDataDir(copy());
    expect(report.findings).toEqual([]);
    expect(report.logChainsChecked).toBeGreaterThanOrEqual(3);
  });

  it('names the key that signed, and with the service key pinned (--did) refuses values any other key signed', async () => {
    const root = copy();
    const pinned = await verifyDataDir(root, { did: serviceDid });
    expect(pinned).toMatchObject({ findings: [], signers: [serviceDid] });
    const other = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const stranger = await verifyDataDir(root, { did: other });
    expect(stranger.logChainsChecked).toBe(0);
    expect(stranger.findings.length).toBeGreaterThanOrEqual(3);
    for (const finding of stranger.findings)
      expect(finding.what).toBe(
        `log chain: the recorded value is signed by ${serviceDid}, not by the service key given (${other})`,
      );
  });

  it('a note write rewritten with its CRC fixed is tampering, between two checkpoints', async () => {
    const root = copy();
    const [segment] = segments(root);
    const target = noteFrames(segment).find((f) => f.payload.includes('note-18'))!;
    const payload = Buffer.from(target.payload.toString('utf8').replace('note-18', 'note-81'));
    writeFileSync(segment, withFrameRewritten(readFileSync(segment), target, payload));
    const found = await logChainProblems(root);
    expect(found).toEqual([
      expect.stringMatching(/offset (\d+): log chain: records \1 to (\d+) do not chain/),
    ]);
    const [, from, to] = /records (\d+) to (\d+)/.exec(found[0])!;
    const offset = frames(segment).findIndex((f) => f.payload.includes('note-81'));
    expect(Number(from)).toBeLessThanOrEqual(offset);
    expect(Number(to)).toBeGreaterThanOrEqual(offset);
  });

  it('a removed record (later offsets shift down with it) is tampering', async () => {
    const root = copy();
    const [segment] = segments(root);
    const target = noteFrames(segment)[2];
    const offset = frames(segment).findIndex((f) => f.position === target.position);
    writeFileSync(segment, without(readFileSync(segment), target));
    const found = await logChainProblems(root);
    expect(found.length).toBeGreaterThanOrEqual(1);
    const [, from, to] = /records (\d+) to (\d+)/.exec(found[0])!;
    expect(Number(from)).toBeLessThanOrEqual(offset);
    expect(Number(to)).toBeGreaterThanOrEqual(offset);
  });

  it('two records swapped is tampering', async () => {
    const root = copy();
    const [segment] = segments(root);
    const all = frames(segment);
    const [a, b] = noteFrames(segment).slice(3, 5);
    const ia = all.findIndex((f) => f.position === a.position);
    const bytes = readFileSync(segment);
    const end = (f: Frame): number => f.position + 8 + f.payload.length;
    // Whole frames moved as they are: each keeps a valid CRC, only their order changes.
    const swapped = Buffer.concat([
      bytes.subarray(0, a.position),
      bytes.subarray(b.position, end(b)),
      bytes.subarray(end(a), b.position),
      bytes.subarray(a.position, end(a)),
      bytes.subarray(end(b)),
    ]);
    writeFileSync(segment, swapped);
    const found = await logChainProblems(root);
    expect(found).toEqual([expect.stringMatching(/log chain: records (\d+) to (\d+) do not chain/)]);
    const [, from, to] = /records (\d+) to (\d+)/.exec(found[0])!;
    expect(Number(from)).toBeLessThanOrEqual(ia);
    expect(Number(to)).toBeGreaterThanOrEqual(ia);
  });

  it('a checkpoint whose recorded value was forged without the service key is reported', async () => {
    const root = copy();
    const name = readdirSync(join(root, 'checkpoints')).sort()[0];
    const offset = Number(name.replace(/\D/g, ''));
    const store = new CheckpointStore(root);
    const checkpoint = (await store.read(offset))!;
    const chain = checkpoint.projections.logChain as Record<string, unknown>;
    await store.write({
      ...checkpoint,
      projections: { ...checkpoint.projections, logChain: { ...chain, hash: '0'.repeat(64) } },
    });
    const found = await logChainProblems(root);
    expect(found).toEqual([
      expect.stringMatching(
        /^checkpoints\/.* offset \d+: log chain: the signature over the recorded value does not verify/,
      ),
    ]);
  });

  it('checkpoints from before the log chain: the next start recomputes it from the log, and it verifies', async () => {
    const root = copy();
    const store = new CheckpointStore(root);
    for (const offset of store.offsets()) {
      const { logChain: _dropped, ...projections } = (await store.read(offset))!.projections;
      await store.write({ ...(await store.read(offset))!, projections });
    }
    expect(await verifyDataDir(root)).toMatchObject({ findings: [], logChainsChecked: 0 });
    const app = await TestApp.start(OPTIONS, undefined, root);
    for (let i = 0; i < 12; i++) await app.getPath(`/kv/audit/late${i}/set/note-late-${i}`);
    await app.close({ keepData: true });
    const newest = (await store.read(store.offsets()[0]))!.projections.logChain;
    expect(newest).toMatchObject({ anchorOffset: 0 }); // from L0, not a stand-in anchor
    const report = await verifyDataDir(root);
    expect(report.findings).toEqual([]);
    expect(report.logChainsChecked).toBeGreaterThanOrEqual(1);
  });
});
