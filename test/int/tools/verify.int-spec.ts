import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signingKeyFromSeed } from '../../../src/identity/signing-key';
import { CheckpointStore } from '../../../src/projections/checkpoint-store';
import { checkpointedRingLengths } from '../../../src/tools/verify/checkpoint-audit';
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
import { ServiceProcess } from '../../support/service-process';
import { TestApp } from '../../support/test-app';

const ROOT = join(__dirname, '..', '..', '..');
const TS_REGISTER = join(ROOT, 'test', 'support', 'ts-register.js');
const KEY = signingKeyFromSeed('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');

const problems = verifyProblems;

/** Issue 16: `npm run verify` proves a data directory intact, and names exactly what is not. */
describe('the audit verifier', () => {
  const dir = makeTempDir('agent-chat-verify');
  let source: string;
  const copy = dataDirCopier(dir.path, () => source);

  beforeAll(async () => {
    const app = await TestApp.start({ logRetention: 'keep', checkpointEvents: 20 });
    source = app.root;
    for (let i = 0; i < 30; i++) await app.getPath(`/r/${i % 2 ? 'alpha' : 'beta'}/say/n/message-${i}`);
    for (let nonce = 1; nonce <= 5; nonce++) {
      const text = `signed hello ${nonce}`;
      const sig = KEY.sign(`vault|${nonce}|${text}`);
      expect(
        (await app.getPath(`/r/vault/say-signed/${KEY.did}/${sig}/${nonce}/${encodeURIComponent(text)}`))
          .status,
      ).toBe(200);
    }
    // A nonce sent with leading zeros: the record keeps the integer, the signature covers "0007".
    const padded = KEY.sign('vault|0007|padded');
    expect((await app.getPath(`/r/vault/say-signed/${KEY.did}/${padded}/0007/padded`)).status).toBe(200);
    expect((await app.getPath('/kv/team/plan/set/ship-it')).status).toBe(200);
    await app.close({ keepData: true });
    source = app.root;
  });
  afterAll(() => {
    dir.remove();
    if (source) rmSync(source, { recursive: true, force: true }); // the fixture TestApp made for the copies
  });

  it('passes an intact data directory, and says what it checked', async () => {
    const report = await verifyDataDir(copy());
    expect(report.findings).toEqual([]);
    expect(report.signed).toBe(6);
    expect(report.checkpoints).toBeGreaterThan(0);
    expect(report.ringsCompared).toBeGreaterThanOrEqual(4);
    expect(report.records).toBeGreaterThan(36);
  });

  it('a flipped byte inside a frame: the segment, the offset and the byte position', async () => {
    const root = copy();
    const [segment] = segments(root);
    const target = frames(segment)[10];
    const bytes = readFileSync(segment);
    bytes[target.position + 8 + 3] ^= 0x01;
    writeFileSync(segment, bytes);
    const found = await problems(root);
    expect(found).toEqual([
      expect.stringMatching(
        new RegExp(`^log/\\d{20}\\.log offset 10, byte ${target.position}: .*(crc|checksum)`, 'i'),
      ),
    ]);
  });

  it('a torn last frame', async () => {
    const root = copy();
    const last = segments(root).pop()!;
    const all = frames(last);
    const final = all[all.length - 1];
    truncateSync(last, final.position + 8 + Math.floor(final.payload.length / 2));
    const found = await problems(root);
    expect(found).toEqual([expect.stringMatching(new RegExp(`byte ${final.position}: torn frame`))]);
  });

  it('a ring file that differs from what the log replays to: the file and the first differing byte', async () => {
    const root = copy();
    const ring = rings(root).find((path) => path.includes('alpha'))!;
    const bytes = readFileSync(ring);
    const at = bytes.indexOf('message-5');
    bytes[at + 8] = '6'.charCodeAt(0);
    writeFileSync(ring, bytes);
    const found = await problems(root);
    // The checkpoint's sealed chain (issue 29) finds it too, as the range the checkpoint sealed.
    expect(found).toEqual([
      expect.stringMatching(/^rooms\/alpha\.[^ ]+\.jsonl byte 0: hash chain: bytes 0 to \d+/),
      expect.stringMatching(
        new RegExp(
          `^rooms/alpha\\.[^ ]+\\.jsonl byte ${at + 8}: differs from the replayed file at line \\d+`,
        ),
      ),
    ]);
  });

  it('a ring file cut at a line: accepted down to what the newest checkpoint records, damage below it', async () => {
    // What a crash leaves when the service held its last ring appends in memory: whole lines past the
    // newest checkpoint. Without any checkpoint a start rewrites every ring from the log.
    const bare = copy();
    rmSync(join(bare, 'checkpoints'), { recursive: true, force: true });
    const ring = rings(bare).find((path) => path.includes('alpha'))!;
    const bytes = readFileSync(ring);
    const lastLine = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
    truncateSync(ring, lastLine);
    expect(await problems(bare)).toEqual([]);
    truncateSync(ring, lastLine - 3); // mid-line: no service writes that
    expect(await problems(bare)).toEqual([
      expect.stringMatching(/^rooms\/alpha\.[^ ]+ byte \d+: is \d+ bytes, but replaying/),
    ]);

    // Shorter than the newest checkpoint records: a start would refuse it, so the verifier reports it.
    const checked = copy();
    const name = ring.slice(ring.lastIndexOf('/') + 1);
    const recorded = (await checkpointedRingLengths(checked)).get(name)!;
    const below = bytes.lastIndexOf(0x0a, recorded - 2) + 1;
    truncateSync(join(checked, 'rooms', name), below);
    const [checkpointOffset] = new CheckpointStore(checked).offsets();
    expect(await problems(checked)).toEqual([
      expect.stringMatching(
        new RegExp(`^rooms/alpha\\.[^ ]+ byte ${below}: hash chain: .* sealed ${recorded} bytes`),
      ),
      `checkpoints/${String(checkpointOffset).padStart(20, '0')}.ckpt: a start would refuse: ring file ${name} holds ${below} bytes, the checkpoint at ${checkpointOffset} needs ${recorded}`,
      expect.stringMatching(
        new RegExp(`^rooms/alpha\\.[^ ]+ byte ${below}: is ${below} bytes, but replaying`),
      ),
    ]);
  });

  it('a missing ring file: damage when a checkpoint names it, accepted when none does (a start rebuilds it)', async () => {
    const named = copy();
    rmSync(rings(named).find((path) => path.includes('alpha'))!);
    const found = await problems(named);
    expect(found).toContainEqual(
      expect.stringMatching(/a start would refuse: ring file alpha\.[^ ]+ is missing/),
    );
    expect(found).toContainEqual(
      expect.stringMatching(/^rooms\/alpha\.[^ ]+: missing: replaying the log produces \d+ bytes$/),
    );
    const bare = copy();
    rmSync(join(bare, 'checkpoints'), { recursive: true, force: true });
    rmSync(rings(bare).find((path) => path.includes('alpha'))!);
    expect(await problems(bare)).toEqual([]);
  });

  it('a forged signed record with a valid frame checksum fails its signature', async () => {
    const root = copy();
    for (const segment of segments(root)) {
      const bytes = readFileSync(segment);
      const index = bytes.indexOf('signed hello 3');
      if (index === -1) continue;
      const frame = frames(segment).find(
        (f) => f.position < index && index < f.position + 8 + f.payload.length,
      )!;
      const forged = Buffer.from(
        frame.payload.toString('utf8').replaceAll('signed hello 3', 'signed hellO 3'),
      );
      writeFileSync(segment, withFrameRewritten(bytes, frame, forged));
    }
    const found = await problems(root);
    expect(
      found.some((line) =>
        /offset \d+: room vault: signature of seq 3 does not verify: did:key:z6Mk\S+ did not sign "vault\|3\|signed hellO 3"/.test(
          line,
        ),
      ),
    ).toBe(true);
    // The replayed ring then differs from the stored one, which still holds the signed text.
    expect(found.some((line) => line.startsWith('rooms/vault.'))).toBe(true);
  });

  it('a damaged checkpoint: its seal no longer matches', async () => {
    const root = copy();
    const checkpoints = readdirSync(join(root, 'checkpoints')).filter((name) => name.endsWith('.ckpt'));
    const path = join(root, 'checkpoints', checkpoints[0]);
    const bytes = readFileSync(path);
    bytes[20] ^= 0x02;
    writeFileSync(path, bytes);
    const found = await problems(root);
    expect(found).toEqual([
      expect.stringMatching(
        new RegExp(
          `^checkpoints/${checkpoints[0]}: contents hash to [0-9a-f]{64}, but the end line records [0-9a-f]{64}$`,
        ),
      ),
    ]);
  });

  it('is safe and clean beside a running service that keeps writing', async () => {
    const live = join(dir.path, 'live');
    const service = await ServiceProcess.start({ CHAT_ROOT: live, CHAT_CHECKPOINT_EVENTS: '50' });
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const reply = await fetch(service.url(`/r/live-${written % 3}/say/w/${'x'.repeat(200)}${written}`));
        expect(reply.status).toBe(200);
        written++;
      }
    })();
    try {
      while (written < 100) await new Promise((resolve) => setTimeout(resolve, 20));
      for (let round = 0; round < 3; round++) expect(await problems(live)).toEqual([]);
    } finally {
      writing = false;
      await writer;
      await service.stop();
    }
    expect(await problems(live)).toEqual([]);
  }, 60_000);

  it('the command exits 0 on an intact directory and 1 with the report on a damaged one', () => {
    const run = (root: string) =>
      spawnSync(process.execPath, ['-r', TS_REGISTER, join(ROOT, 'src', 'tools', 'verify.cli.ts'), root], {
        encoding: 'utf8',
        timeout: 60_000,
      });
    const ok = run(copy());
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(
      /^verify: OK: \d+ log records, 6 signed, \d+ checkpoints, ring files \d+ compared, room chains \d+ checked, log chain \d+ checkpoints signed by did:key:z6Mk\w+\n$/,
    );
    const damaged = copy();
    const ring = rings(damaged)[0];
    writeFileSync(ring, Buffer.concat([readFileSync(ring), Buffer.from('{"seq":999}\n')]));
    const bad = run(damaged);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(
      /^verify: 1 problem\(s\): .*\n {2}rooms\/\S+ byte \d+: is \d+ bytes, but replaying the log gives \d+ \(identical up to there\)\n$/,
    );
  });
});
