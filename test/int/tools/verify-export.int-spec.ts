import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSigningKey } from '../../../src/identity/signing-key';
import { makeTempDir } from '../../support/temp-dir';
import { ServiceProcess } from '../../support/service-process';
import { TestApp } from '../../support/test-app';

const ROOT = join(__dirname, '..', '..', '..');
const VERIFIER = join(ROOT, 'tools', 'verify-export.mjs');
const KEY = generateSigningKey();

interface Outcome {
  readonly status: number | null;
  readonly line: string;
}

describe('tools/verify-export.mjs: an export and a signed head, checked offline (issue 29)', () => {
  let t: TestApp;
  const dir = makeTempDir('agent-chat-verify-export');
  afterAll(() => dir.remove());
  afterEach(() => t.close());

  let files = 0;
  const save = (content: string | Buffer): string => {
    const path = join(dir.path, `file-${files++}`);
    writeFileSync(path, content);
    return path;
  };
  const run = (...args: string[]): Outcome => {
    const result = spawnSync(process.execPath, [VERIFIER, ...args], { encoding: 'utf8' });
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(/\n\s+at /); // never a stack trace
    if (result.status !== 2) expect(output.trimEnd().split('\n')).toHaveLength(1); // one line (usage: two)
    return { status: result.status, line: output.trimEnd() };
  };
  const exportOf = async (room: string): Promise<Buffer> => (await t.getPath(`/r/${room}/export`)).rawPayload;
  const headOf = async (room: string): Promise<string> => (await t.getPath(`/r/${room}/head`)).body;
  const write = async (room: string, count: number, from = 0): Promise<void> => {
    for (let i = from; i < from + count; i++)
      await t.getPath(`/r/${room}/say/n/message%20${i}%20${'x'.repeat(60)}`);
  };
  const writeSigned = async (room: string, nonce: number, text: string): Promise<void> => {
    const sig = KEY.sign(`${room}|${nonce}|${text}`);
    const reply = await t.getPath(
      `/r/${room}/say-signed/${KEY.did}/${sig}/${nonce}/${encodeURIComponent(text)}`,
    );
    expect(reply.status).toBe(200);
  };

  it('verifies an untouched export with signed records, and reports each kind of damage in one line', async () => {
    t = await TestApp.start();
    await write('audit', 3);
    await writeSigned('audit', 1, 'signed one');
    await write('audit', 3, 3);
    await writeSigned('audit', 2, 'signed two');
    await write('other', 2);
    const head = save(await headOf('audit'));
    const bytes = await exportOf('audit');
    const exported = save(bytes);
    const ok = run(exported, head);
    expect(ok).toEqual({
      status: 0,
      line: expect.stringMatching(
        /^verify-export: OK: room audit generation 1, seq 1 to 8 .* 2 signed record\(s\) verify$/,
      ),
    });

    const lines = bytes.toString('utf8').split('\n').slice(0, -1);
    const body = (l: string[]): string => l.map((x) => `${x}\n`).join('');
    const cases: Array<[string, string | Buffer, RegExp]> = [
      ['truncated mid-line', bytes.subarray(0, bytes.length - 20), /export line 8: truncated/],
      [
        'cut after a line',
        body(lines.slice(0, 5)),
        /truncated: the export ends at seq 5, the head covers up to seq 8/,
      ],
      [
        'reordered',
        body([lines[0], lines[2], lines[1], ...lines.slice(3)]),
        /export line 2: seq 3 where 2 was expected \(missing records\)/,
      ],
      [
        'a line deleted',
        body([...lines.slice(0, 3), ...lines.slice(4)]),
        /export line 4: seq 5 where 4 was expected/,
      ],
      ['not JSON', 'this is not an export\n', /export line 1: not JSON/],
      [
        'a text rewritten',
        body([lines[0].replace('message 0', 'massage 0'), ...lines.slice(1)]),
        /chain: at seq 8 .* the head says/,
      ],
      [
        'a signed text rewritten',
        body(lines.map((l) => l.replace('signed one', 'signed 0ne'))),
        /export line 4: the signature of seq 4 does not verify/,
      ],
    ];
    for (const [what, content, expected] of cases) {
      const outcome = run(save(content), head);
      expect({ what, ...outcome }).toEqual({ what, status: 1, line: expect.stringMatching(expected) });
    }

    expect(run(exported, save(await headOf('other'))).line).toMatch(
      /chain: at seq 2 .* the head is of another room or generation$/,
    );
    expect(run(exported, head, '--room', 'other')).toEqual({
      status: 1,
      line: 'verify-export: the head is for room audit, not other',
    });
    expect(run(exported, save('{"room":'))).toEqual({
      status: 1,
      line: expect.stringMatching(/the head .* is not JSON/),
    });
    const forged = JSON.parse(await headOf('audit'));
    expect(run(exported, save(JSON.stringify({ ...forged, last_seq: 7 }))).line).toMatch(
      /the head's signature does not verify/,
    );
    expect(run(exported, head, '--did', KEY.did).line).toMatch(/the head is signed by did:key:.*, not by/);
    expect(run(join(dir.path, 'absent'), head).line).toMatch(/cannot read the export .*absent: ENOENT/);
    expect(run(exported).status).toBe(2);

    // A partial export (after=) verifies from its X-Chain-Anchor; records written after the head are reported.
    const partial = await t.getPath('/r/audit/export?after=5');
    const withoutAnchor = run(save(partial.rawPayload), head);
    expect(withoutAnchor.line).toMatch(
      /export line 1: seq 6, but the head's chain starts at first_seq 1 .*--anchor/,
    );
    const anchored = run(
      save(partial.rawPayload),
      head,
      '--anchor',
      partial.headers['x-chain-anchor'] as string,
    );
    expect(anchored).toEqual({ status: 0, line: expect.stringMatching(/seq 6 to 8 chain to the head/) });
    await write('audit', 2, 100);
    expect(run(save(await exportOf('audit')), head).line).toMatch(/2 record\(s\) past the head$/);
  });

  it('proves a head saved before 1,000 more writes was extended, also after trimming dropped its records, and names a rewrite', async () => {
    // Thousands of writes: what is checked is the chain, not durability, so no fsync per write.
    t = await TestApp.start({ ringBytes: 256 * 1024, fsync: 'none' });
    await write('grow', 1500);
    const savedHead = await headOf('grow');
    const saved = save(savedHead);
    const savedExport = save(await exportOf('grow'));
    expect(JSON.parse(savedHead).first_seq).toBe(1);
    await write('grow', 1000, 1500);
    const laterHead = JSON.parse(await headOf('grow'));
    const later = await exportOf('grow');
    expect(laterHead.first_seq).toBeGreaterThan(1); // the ring was trimmed: the saved head's first records are gone
    expect(laterHead.first_seq).toBeLessThanOrEqual(1500);
    const proven = run(save(later), save(JSON.stringify(laterHead)), '--previous', saved);
    expect(proven).toEqual({
      status: 0,
      line: expect.stringMatching(/grew from seq 1500 to 2500 since the previous head$/),
    });

    // A record the saved head covers, rewritten in the later export (the later head cannot be forged,
    // so the later head does not verify either; the previous head's check comes first and says which)
    const text = later.toString('utf8');
    const rewritten = text.replace('message 1400 ', 'massage 1400 ');
    expect(rewritten).not.toBe(text);
    const caught = run(save(rewritten), save(JSON.stringify(laterHead)), '--previous', saved);
    expect(caught.line).toMatch(
      /the room did not only grow: at seq 1500 .* a record from seq \d+ to 1500 was rewritten/,
    );
    const named = run(
      save(rewritten),
      save(JSON.stringify(laterHead)),
      '--previous',
      saved,
      '--previous-export',
      savedExport,
    );
    expect(named.line).toMatch(/seq 1401 differs from the previous export: the record was rewritten/);
  });

  it('refuses to link heads the ring no longer connects', async () => {
    t = await TestApp.start({ ringBytes: 64 * 1024, fsync: 'none' });
    await write('turn', 10);
    const early = save(await headOf('turn'));
    await write('turn', 2000, 10);
    const outcome = run(save(await exportOf('turn')), save(await headOf('turn')), '--previous', early);
    expect(outcome).toEqual({
      status: 1,
      line: expect.stringMatching(
        /cannot link the previous head: its last seq 10 and the records up to seq \d+ are no longer in the export \(keep heads more often/,
      ),
    });
  });
});

describe('tools/fetch-and-verify.mjs against the real service process (issue 29)', () => {
  it('fetches a head and an export over HTTP and verifies them with no project code', async () => {
    const dir = makeTempDir('agent-chat-fetch-verify');
    const service = await ServiceProcess.start({ CHAT_ROOT: dir.path });
    try {
      for (let i = 0; i < 20; i++) await fetch(service.url(`/r/live/say/n/live%20${i}`));
      const sig = KEY.sign('live|7|signed live');
      await fetch(service.url(`/r/live/say-signed/${KEY.did}/${sig}/7/signed%20live`));
      const script = join(ROOT, 'tools', 'fetch-and-verify.mjs');
      const ok = spawnSync(process.execPath, [script, service.baseUrl, 'live'], { encoding: 'utf8' });
      expect([ok.status, ok.stdout.trim()]).toEqual([
        0,
        expect.stringMatching(/^verify-export: OK: room live .* 1 signed record\(s\) verify$/),
      ]);
      const missing = spawnSync(process.execPath, [script, service.baseUrl, 'nowhere'], { encoding: 'utf8' });
      expect([missing.status, missing.stderr.trim()]).toEqual([
        1,
        expect.stringMatching(/^fetch-and-verify: GET .*\/r\/nowhere\/head: 404 404 no room nowhere/),
      ]);
    } finally {
      await service.stop();
      dir.remove();
    }
  }, 120_000); // a service process's start: seconds, over 30 s on a loaded machine with a cold transpile cache
});
