import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../src/common/clock';
import { generateSigningKey } from '../../src/identity/signing-key';
import { NoteWriteService } from '../../src/notes/note-write.service';
import { NotesReaperService } from '../../src/notes/notes-reaper.service';
import { CheckpointService } from '../../src/projections/checkpoint.service';
import { RoomReaperService } from '../../src/rooms/room-reaper.service';
import { lastLine, LOOSE_RATES, saySignedUrl, setSignedUrl } from '../support/notes-kit';
import { TestApp } from '../support/test-app';

const DAY_MS = 86_400_000;

describe('notes: capacity, durability, reaping and log retention', () => {
  let t: TestApp;
  let clock: ManualClock;
  const value = async (path: string): Promise<string | null> => {
    const reply = await t.getPath(path);
    return reply.status === 200 ? lastLine(reply.body) : null;
  };
  afterEach(() => t.close());

  describe('with a manual clock', () => {
    beforeEach(async () => {
      clock = new ManualClock();
      t = await TestApp.start(LOOSE_RATES, clock);
    });

    it('refuses new notes past the per-namespace and the global cap; overwrites always proceed', async () => {
      await t.close();
      t = await TestApp.start({ ...LOOSE_RATES, maxRooms: 2, maxNotesTotal: 8 }, clock);
      for (const key of ['k1', 'k2']) expect((await t.getPath(`/kv/a/${key}/set/v`)).status).toBe(200);
      const perNs = await t.getPath('/kv/a/k3/set/v');
      expect(perNs.status).toBe(400);
      expect(perNs.body.startsWith('400 note limit reached (2 is the cap per namespace')).toBe(true);
      expect(perNs.body).toContain('GET /kv/a');
      expect((await t.post('/kv/a/k3', { value: 'v' })).status).toBe(400);
      expect((await t.getPath('/kv/a/k1/set/overwritten')).status).toBe(200);
      for (const ns of ['b', 'c', 'd']) {
        for (const key of ['k1', 'k2']) expect((await t.getPath(`/kv/${ns}/${key}/set/v`)).status).toBe(200);
      }
      const global = await t.getPath('/kv/fresh/k1/set/v');
      expect(global.status).toBe(400);
      expect(global.body.startsWith('400 global note limit reached (8 is the cap')).toBe(true);
      expect((await t.getPath('/kv/a/k2/set/still%20fine')).status).toBe(200);
      expect((await t.getPath('/kv/a/k3/set/v?if=x')).status).toBe(409); // the condition is decided first
    });

    it('reclaims notes idle for 7 days; reads never refresh them, writes do', async () => {
      await t.getPath('/kv/ns/old/set/v');
      await t.getPath('/kv/ns/rewritten/set/v1');
      clock.advanceMs(6 * DAY_MS);
      await t.getPath('/kv/ns/young/set/v');
      await t.getPath('/kv/ns/rewritten/set/v2');
      expect(await value('/kv/ns/old')).toBe('v');
      clock.advanceMs(DAY_MS + 1000);
      expect(await t.get(NotesReaperService).pass()).toBe(1);
      expect(await value('/kv/ns/old')).toBeNull();
      expect((await t.getPath('/kv/ns')).body).toBe('/kv/ns/rewritten\n/kv/ns/young\n');
      expect(await t.get(NoteWriteService).reclaim([{ ns: 'ns', key: 'young', lastWriteAt: 1 }])).toBe(0);
      clock.advanceMs(7 * DAY_MS);
      expect(await t.get(NotesReaperService).pass()).toBe(2);
      expect((await t.getPath('/kv/ns')).body).toBe('\n');
      expect((await t.getPath('/kv/ns/old/set/again?if_absent=1')).status).toBe(200);
    });

    it('keeps room-owners, room-allow and room-nonce notes as long as their room exists', async () => {
      const alice = generateSigningKey();
      const ownerUrl = setSignedUrl(alice, {
        ns: 'room-owners',
        key: 'd-live',
        nonce: '1',
        value: alice.did,
      });
      expect((await t.getPath(ownerUrl)).status).toBe(200);
      const allowUrl = setSignedUrl(alice, { ns: 'room-allow', key: 'd-live', nonce: '2', value: alice.did });
      expect((await t.getPath(allowUrl)).status).toBe(200);
      clock.advanceMs(3 * DAY_MS);
      expect((await t.getPath(saySignedUrl(alice, 'd-live', '1', 'the room now exists'))).status).toBe(200);
      clock.advanceMs(5 * DAY_MS); // the guard notes are 8 days idle, the room 5
      expect(await t.get(NotesReaperService).pass()).toBe(0);
      expect(await value('/kv/room-owners/d-live')).toBe(alice.did);
      clock.advanceMs(3 * DAY_MS);
      expect(await t.get(RoomReaperService).pass()).toBe(2); // d-live and /r/events, which announced it
      expect(await t.get(NotesReaperService).pass()).toBe(3);
      for (const ns of ['room-owners', 'room-allow', 'room-nonce'])
        expect(await value(`/kv/${ns}/d-live`)).toBeNull();
    });
  });

  it('keeps every note across restarts, from a checkpoint and from replay alike', async () => {
    t = await TestApp.start(LOOSE_RATES);
    const owner = generateSigningKey();
    await t.getPath('/kv/keep/a/set/first');
    await t.post('/kv/keep/b', { value: 'ünïcödé ☃ value' });
    await t.getPath(setSignedUrl(owner, { ns: 'room-owners', key: 'd-r', nonce: '7', value: owner.did }));
    await t.get(CheckpointService).take();
    await t.getPath('/kv/keep/a/set/second?if=first');
    await t.getPath('/kv/keep/p-hidden/set/secret');
    const paths = [
      '/kv/keep/a',
      '/kv/keep/b',
      '/kv/keep/p-hidden',
      '/kv/keep',
      '/kv/room-owners/d-r',
      '/kv/room-nonce/d-r',
    ];
    const before = await Promise.all(paths.map((p) => t.getPath(p)));
    await t.restart();
    const after = await Promise.all(paths.map((p) => t.getPath(p)));
    expect(after.map((r) => [r.status, r.body])).toEqual(before.map((r) => [r.status, r.body]));
    expect(await value('/kv/keep/a')).toBe('second');
    expect((await t.getPath('/kv/keep/a/set/third?if=second')).status).toBe(200);
    const replayed = await t.getPath(
      setSignedUrl(owner, { ns: 'room-owners', key: 'd-r', nonce: '7', value: owner.did }),
    );
    expect(replayed.status).toBe(403); // the burned nonce survived too
    await t.restart();
    expect(await value('/kv/keep/a')).toBe('third');
  });

  it('lets log retention drop overwritten values: segments before the oldest kept checkpoint go', async () => {
    t = await TestApp.start({ ...LOOSE_RATES, fsync: 'none', logSegmentBytes: 65_536, checkpointEvents: 25 });
    const big = (i: number): string => `${i}:${'x'.repeat(2000)}`;
    for (let i = 0; i < 600; i++) expect((await t.getPath(`/kv/ns/k/set/${big(i)}`)).status).toBe(200);
    await t.get(CheckpointService).take();
    const logDir = join(t.root, 'log');
    const segments = readdirSync(logDir).filter((name) => name.endsWith('.log'));
    const logBytes = segments.reduce((sum, name) => sum + statSync(join(logDir, name)).size, 0);
    expect(segments.length).toBeLessThanOrEqual(4); // ~1.2 MB were written in ~20 segments
    expect(logBytes).toBeLessThan(4 * 65_536 + 4096);
    const checkpoints = readdirSync(join(t.root, 'checkpoints'));
    for (const name of checkpoints)
      expect(statSync(join(t.root, 'checkpoints', name)).size).toBeLessThan(16_384);
    await t.restart();
    expect(await value('/kv/ns/k')).toBe(big(599));
    expect((await t.getPath('/kv/ns')).body).toBe('/kv/ns/k\n');
  });
});
