import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { TestApp } from '../support/test-app';

/** The chain definition written out independently of src/rooms/chain (a copy would prove nothing). */
const sha256 = (...parts: Buffer[]): string => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};
const h0 = (room: string, generation: number): string =>
  sha256(Buffer.from(`agent-chat room chain v1\n${room}\n${generation}\n`));
function fold(anchor: string, bytes: Buffer): string {
  let hash = anchor;
  for (let start = 0; start < bytes.length;) {
    const end = bytes.indexOf(10, start) + 1;
    hash = sha256(Buffer.from(hash, 'hex'), bytes.subarray(start, end));
    start = end;
  }
  return hash;
}

describe('rooms: the hash chain over the stored lines (issue 29)', () => {
  let t: TestApp;
  afterEach(() => t.close());

  const exported = async (room: string, query = '') => {
    const reply = await t.getPath(`/r/${room}/export${query}`);
    return {
      bytes: reply.rawPayload,
      anchor: reply.headers['x-chain-anchor'] as string | undefined,
      head: reply.headers['x-chain-head'] as string | undefined,
    };
  };

  it('starts at h0 of (room, generation), folds every exported line and survives restart and full replay', async () => {
    t = await TestApp.start();
    const empty = await exported('c');
    expect([empty.anchor, empty.head]).toEqual([undefined, undefined]); // no room, no chain
    for (let i = 0; i < 20; i++) await t.getPath(`/r/c/say/n/line%20${i}%20%E2%98%83`);
    const whole = await exported('c');
    expect(whole.anchor).toBe(h0('c', 1));
    expect(whole.head).toBe(fold(h0('c', 1), whole.bytes));

    const later = await exported('c', '?after=15');
    expect(later.bytes.toString()).toContain('"seq":16');
    expect(later.anchor).toBe(
      fold(h0('c', 1), whole.bytes.subarray(0, whole.bytes.length - later.bytes.length)),
    );
    expect(later.head).toBe(whole.head);

    await t.restart(); // from the checkpoint written on close
    expect(await exported('c')).toEqual(whole);
    await t.app.close();
    rmSync(join(t.root, 'checkpoints'), { recursive: true, force: true });
    await t.restart(); // no checkpoint: the whole log replayed
    expect(await exported('c')).toEqual(whole);
  });

  it('keeps the anchor when ring trimming drops the oldest lines, before and after a restart', async () => {
    t = await TestApp.start({ ringBytes: 4096 });
    const all: Buffer[] = [];
    const write = async (n: number) => {
      for (let i = all.length; n > 0; i++, n--) {
        await t.getPath(`/r/trim/say/n/${'x'.repeat(100)}${i}`);
        all.push((await exported('trim', `?after=${i}`)).bytes);
      }
    };
    const expectChained = async () => {
      const ring = await exported('trim');
      const everything = Buffer.concat(all);
      expect(ring.bytes.length).toBeLessThan(everything.length); // trimmed
      const dropped = everything.subarray(0, everything.length - ring.bytes.length);
      expect(ring.anchor).toBe(fold(h0('trim', 1), dropped));
      expect(ring.head).toBe(fold(h0('trim', 1), everything));
      return ring;
    };
    await write(60);
    const ring = await expectChained();
    await t.restart();
    expect(await exported('trim')).toEqual(ring);
    // The chain values remembered for trimming (ChainMarks) are gone after a restart: trimming again
    // moves the anchor from the checkpointed one.
    await write(60);
    await expectChained();
  });

  it('starts chains for rooms a checkpoint holds without one (written before chains, or with CHAT_ROOM_CHAIN=off)', async () => {
    t = await TestApp.start({ roomChain: 'off', ringBytes: 4096 });
    for (let i = 0; i < 5; i++) await t.getPath(`/r/whole/say/n/line%20${i}`);
    for (let i = 0; i < 60; i++) await t.getPath(`/r/trimmed/say/n/${'x'.repeat(100)}${i}`);
    expect(await exported('whole')).toMatchObject({ anchor: undefined, head: undefined });
    const off = await t.getPath('/r/whole/head');
    expect([off.status, off.body.split('\n')[0]]).toEqual([
      404,
      '404 no room whole — this server keeps no room chains (CHAT_ROOM_CHAIN=off).',
    ]);
    const root = t.root;
    await t.close({ keepData: true }); // the checkpoint records the rooms with chain ''
    t = await TestApp.start({ ringBytes: 4096 }, undefined, root);

    const whole = await exported('whole'); // never trimmed: from h0, as if chained all along
    expect([whole.anchor, whole.head]).toEqual([h0('whole', 1), fold(h0('whole', 1), whole.bytes)]);
    const trimmed = await exported('trimmed'); // trimmed before: a stand-in anchor naming the first seq
    const firstSeq = (JSON.parse(trimmed.bytes.toString('utf8').split('\n')[0]) as { seq: number }).seq;
    expect(firstSeq).toBeGreaterThan(1);
    const standIn = sha256(Buffer.from(`agent-chat room chain v1\ntrimmed\n1\nfrom ${firstSeq}\n`));
    expect([trimmed.anchor, trimmed.head]).toEqual([standIn, fold(standIn, trimmed.bytes)]);
    await t.getPath('/r/whole/say/n/after%20the%20upgrade'); // and the chain goes on from there
    const grown = await exported('whole');
    expect(grown.head).toBe(fold(whole.head!, grown.bytes.subarray(whole.bytes.length)));
  });
});
