import { readFileSync, writeFileSync } from 'node:fs';
import { verifyDataDir } from '../../../src/tools/verify/verify-data-dir';
import {
  dataDirCopier,
  frames,
  rings,
  segments,
  verifyProblems,
  withFrameRewritten,
} from '../../support/data-dir-files';
import { makeTempDir } from '../../support/temp-dir';
import { TestApp } from '../../support/test-app';

const problems = verifyProblems;

/**
 * Issue 29: tampering with real files, each reported with its position. The checkpoints seal each
 * room's chain, so a record rewritten in the log *and* the ring (CRC fixed: a replay reproduces the
 * ring, the replay comparison passes) is still found.
 */
describe('npm run verify: room chains and tampering (issue 29)', () => {
  const dir = makeTempDir('agent-chat-verify-chains');
  let source: string;
  const copy = dataDirCopier(dir.path, () => source);
  const alphaRing = (root: string): string => rings(root).find((p) => p.includes('alpha.'))!;
  const lines = (bytes: Buffer): string[] => bytes.toString('utf8').split('\n').slice(0, -1);
  const join_ = (l: string[]): string => l.map((x) => `${x}\n`).join('');

  beforeAll(async () => {
    const app = await TestApp.start({ logRetention: 'keep', checkpointEvents: 10, checkpointsKeep: 10 });
    for (let i = 0; i < 40; i++) await app.getPath(`/r/${i % 4 ? 'alpha' : 'beta'}/say/n/message-${i}`);
    await app.close({ keepData: true });
    source = app.root;
  });
  afterAll(() => dir.remove());

  it('passes an untouched directory and counts the chains it checked', async () => {
    const report = await verifyDataDir(copy());
    expect(report.findings).toEqual([]);
    expect(report.chainsChecked).toBeGreaterThanOrEqual(2);
  });

  it('a record rewritten in the log with its CRC fixed and in the ring alike: the chain names the range', async () => {
    const root = copy();
    const [segment] = segments(root);
    const bytes = readFileSync(segment);
    const target = frames(segment).find((f) => f.payload.includes('message-13'))!;
    const payload = Buffer.from(target.payload.toString('utf8').replace('message-13', 'message-31'));
    writeFileSync(segment, withFrameRewritten(bytes, target, payload));
    const ring = alphaRing(root);
    const ringBytes = readFileSync(ring);
    const at = ringBytes.indexOf('message-13');
    writeFileSync(ring, Buffer.from(ringBytes.toString('utf8').replace('message-13', 'message-31')));
    const found = await problems(root);
    expect(found).toEqual([
      expect.stringMatching(/^checkpoints\/.* log chain: records \d+ to \d+ do not chain/), // the log chain too: verify-log-chain.int-spec.ts
      expect.stringMatching(
        /^rooms\/alpha\.1\.0\.jsonl byte (\d+): hash chain: bytes \1 to \d+ \(from line \d+\) do not chain/,
      ),
    ]);
    const [, from, to] = /byte (\d+): hash chain: bytes \d+ to (\d+)/.exec(found[1])!;
    expect(Number(from)).toBeLessThanOrEqual(at);
    expect(Number(to)).toBeGreaterThan(at);
  });

  it('a byte flipped in a log record with its CRC fixed: the replay differs from the ring at that byte', async () => {
    const root = copy();
    const [segment] = segments(root);
    const bytes = readFileSync(segment);
    const target = frames(segment).find((f) => f.payload.includes('message-13'))!;
    const payload = Buffer.from(target.payload.toString('utf8').replace('message-13', 'message-1X'));
    writeFileSync(segment, withFrameRewritten(bytes, target, payload));
    const at = readFileSync(alphaRing(root)).indexOf('message-13') + 'message-1'.length;
    expect(await problems(root)).toEqual([
      expect.stringMatching(/^checkpoints\/.* log chain: records \d+ to \d+ do not chain/), // the log chain too: verify-log-chain.int-spec.ts
      expect.stringMatching(
        new RegExp(`^rooms/alpha\\.1\\.0\\.jsonl byte ${at}: differs from the replayed file`),
      ),
    ]);
  });

  it('a ring line deleted, two lines swapped, the middle of a ring cut out: each with its byte position', async () => {
    const cases: Array<[string, (l: string[]) => string]> = [
      ['deleted', (l) => join_([...l.slice(0, 4), ...l.slice(5)])],
      ['swapped', (l) => join_([...l.slice(0, 4), l[5], l[4], ...l.slice(6)])],
      [
        'middle cut',
        (l) => {
          const text = join_(l);
          return text.slice(0, 300) + text.slice(600);
        },
      ],
    ];
    for (const [what, tamper] of cases) {
      const root = copy();
      const ring = alphaRing(root);
      const original = readFileSync(ring);
      const changed = Buffer.from(tamper(lines(original)));
      writeFileSync(ring, changed);
      let first = 0;
      while (original[first] === changed[first]) first++;
      const found = await problems(root);
      expect({ what, found }).toEqual({
        what,
        found: expect.arrayContaining([
          expect.stringMatching(
            new RegExp(`^rooms/alpha\\.1\\.0\\.jsonl byte ${first}: differs from the replayed file`),
          ),
          expect.stringMatching(/^rooms\/alpha\.1\.0\.jsonl byte \d+: hash chain/),
        ]),
      });
    }
  });

  it('the middle of a log segment cut out: the segment and the byte where framing breaks', async () => {
    const root = copy();
    const [segment] = segments(root);
    const bytes = readFileSync(segment);
    const twelfth = frames(segment)[12].position;
    const cutAt = twelfth + 5;
    writeFileSync(segment, Buffer.concat([bytes.subarray(0, cutAt), bytes.subarray(cutAt + 200)]));
    const found = await problems(root);
    expect(found[0]).toMatch(new RegExp(`^log/\\d{20}\\.log offset 12, byte ${twelfth}: `));
  });
});
