import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printEvents } from '../../../src/tools/events.cli';
import { replay } from '../../../src/tools/replay';
import { verifyDataDir } from '../../../src/tools/verify/verify-data-dir';
import { TestApp } from '../../support/test-app';

const READS = [
  '/r/a?format=json&limit=200',
  '/r/a/export',
  '/r/b/export',
  '/r/events/export',
  '/r/b?format=json',
];

async function snapshot(app: TestApp): Promise<string[]> {
  return Promise.all(READS.map(async (url) => (await app.getPath(url)).body));
}

describe('replay and events tools', () => {
  const dirs: string[] = [];
  const freshDir = (): string => {
    const dir = join(mkdtempSync(join(tmpdir(), 'agent-chat-replay-')), 'new');
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(join(dir, '..'), { recursive: true, force: true })));

  it('rebuilds a data directory from the whole log into one the service starts on with the same state', async () => {
    const source = await TestApp.start({ logRetention: 'keep' });
    for (let i = 0; i < 40; i++) await source.getPath(`/r/${i % 2 ? 'a' : 'b'}/say/n/m${i}`);
    const expected = await snapshot(source);
    const target = freshDir();
    const report = await replay({ source: source.root, target });
    expect(report).toMatchObject({ base: 'log start', fromOffset: 0 });
    // The copy keeps the service's identity: its checkpoints verify under the same did (issue 29).
    const key = (root: string) => readFileSync(join(root, 'service-key'), 'utf8');
    expect(key(target)).toBe(key(source.root));
    expect((await verifyDataDir(target)).findings).toEqual([]);
    const rebuilt = await TestApp.start({}, undefined, target);
    expect(await snapshot(rebuilt)).toEqual(expected);
    expect((await rebuilt.getPath('/r/a/say/n/next?format=json')).body).toContain('"last_seq":21');
    await rebuilt.close({ keepData: true });
    await source.close();
  });

  it('stops at --until (an offset), giving the state as it was then', async () => {
    const source = await TestApp.start({ logRetention: 'keep' });
    for (let i = 0; i < 5; i++) await source.getPath(`/r/a/say/n/early${i}`);
    const early = await snapshot(source);
    const { untilOffset } = await replay({ source: source.root, target: freshDir() });
    for (let i = 0; i < 5; i++) await source.getPath(`/r/a/say/n/late${i}`);
    const target = freshDir();
    await replay({ source: source.root, target, until: { offset: untilOffset } });
    const rebuilt = await TestApp.start({}, undefined, target);
    expect(await snapshot(rebuilt)).toEqual(early);
    await rebuilt.close({ keepData: true });
    await source.close();
  });

  it('starts from the oldest kept checkpoint when retention compacted the log', async () => {
    const source = await TestApp.start({ logSegmentBytes: 65536, checkpointEvents: 100 });
    const text = 'z'.repeat(400);
    for (let i = 0; i < 400; i++) await source.getPath(`/r/${i % 3 ? 'a' : 'b'}/say/n/${text}${i}`);
    await source.restart(); // shutdown checkpoint + retention
    for (let i = 0; i < 10; i++) await source.getPath(`/r/a/say/n/after${i}`);
    const expected = await snapshot(source);
    const target = freshDir();
    const report = await replay({ source: source.root, target });
    expect(report.base).toBe('checkpoint');
    expect(report.fromOffset).toBeGreaterThan(0);
    const rebuilt = await TestApp.start({}, undefined, target);
    expect(await snapshot(rebuilt)).toEqual(expected);
    await rebuilt.close({ keepData: true });
    await source.close();
  });

  it('prints events filtered by room and type, readable while the service runs', async () => {
    const source = await TestApp.start();
    await source.getPath('/r/a/say/n/one');
    await source.getPath('/r/b/say/n/two');
    const lines: string[] = [];
    await printEvents(source.root, { room: 'b' }, undefined, (line) => lines.push(line));
    const events = lines.map(
      (line) => JSON.parse(line) as { type: string; room: string; offset: number; time: string },
    );
    expect(events.map((e) => e.type)).toEqual(['room.created', 'message.appended']);
    expect(events.every((e) => e.room === 'b' && /Z$/.test(e.time))).toBe(true);
    const created: string[] = [];
    await printEvents(source.root, { type: 'room.created' }, undefined, (line) => created.push(line));
    expect(created.map((line) => (JSON.parse(line) as { room: string }).room)).toEqual(['a', 'events', 'b']);
    await source.close();
  });
});
