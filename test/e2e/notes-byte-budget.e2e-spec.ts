import { LOOSE_RATES } from '../support/notes-kit';
import { TestApp } from '../support/test-app';

const MIB = 1024 * 1024;
/** 8,192 four-byte code points: the largest note value, 32 KiB of UTF-8. */
const LARGEST = '😀'.repeat(8192);
const LARGEST_BYTES = 4 * 8192;

describe('notes: the total note-byte budget (issue 18 item 1, CHAT_NOTE_BYTES_MB)', () => {
  let t: TestApp;
  beforeEach(async () => (t = await TestApp.start({ ...LOOSE_RATES, noteBytesMb: 1 })));
  afterEach(() => t.close());

  it('refuses a new or longer value past the budget with a 400 naming it; shorter overwrites proceed', async () => {
    // Given a store filled to within one largest value of its 1 MiB budget
    const fits = Math.floor(MIB / LARGEST_BYTES); // 32
    for (let i = 0; i < fits; i++) {
      const reply = await t.post(`/kv/budget/k${i}`, { value: LARGEST });
      expect([reply.status, reply.body.slice(0, 10)]).toEqual([200, `ok budget/`]);
    }
    // When one more largest value is written to a new key
    const refused = await t.post('/kv/budget/one-more', { value: LARGEST });
    // Then it is refused with a 400 that says which limit and what to do
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(/^400 note storage limit reached \(note values may total 1048576 bytes/);
    expect(refused.body).toContain('overwrite an existing note');
    expect((await t.getPath('/kv/budget/one-more')).status).toBe(404);
    // A longer value on an existing key is refused too: k0 shrinks (frees 32,763 bytes), a filler takes
    // 32,752 of them, and k0 cannot grow back
    expect((await t.post('/kv/budget/k0', { value: 'short' })).status).toBe(200);
    expect((await t.post('/kv/budget/filler', { value: '😀'.repeat(8188) })).status).toBe(200);
    expect((await t.post('/kv/budget/k0', { value: LARGEST })).status).toBe(400);
    // An overwrite that does not grow the total proceeds, and freed bytes are usable again
    expect((await t.post('/kv/budget/k1', { value: 'tiny' })).status).toBe(200);
    expect((await t.post('/kv/budget/one-more', { value: LARGEST.slice(0, 8000) })).status).toBe(200);
    // The refusals were checked against the stored total, which the listing gauge shows
    const listing = JSON.parse((await t.getPath('/rooms?format=json')).body) as {
      notes: { bytes: number };
    };
    expect(listing.notes.bytes).toBeLessThanOrEqual(MIB);
  });

  it('counts concurrent writes that are appended but not applied yet', async () => {
    // Given 40 largest values sent at once (more than the 32 that fit)
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.post(`/kv/race/k${i}`, { value: LARGEST })),
    );
    // Then exactly as many as fit were accepted and the rest refused with 400, never more
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(32);
    expect(statuses.filter((s) => s === 400)).toHaveLength(8);
  });

  it('keeps the budget across a restart (the total is rebuilt from the checkpoint and the log)', async () => {
    for (let i = 0; i < 32; i++)
      expect((await t.post(`/kv/keep/k${i}`, { value: LARGEST })).status).toBe(200);
    await t.restart();
    expect((await t.post('/kv/keep/new', { value: LARGEST })).status).toBe(400);
  });
});
