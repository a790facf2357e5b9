import { RoomCreationBudget } from '../../src/access/room-creation-budget';
import { ManualClock } from '../../src/common/clock';
import { AppConfig } from '../../src/config/app-config';
import { generateSigningKey, SigningKey } from '../../src/identity/signing-key';
import { RoomReaperService } from '../../src/rooms/room-reaper.service';
import { json, TestApp } from '../support/test-app';

const enc = encodeURIComponent;

function saySigned(key: SigningKey, room: string, nonce: number, text: string): string {
  const sig = key.sign(`${room}|${nonce}|${text}`);
  return `/r/${room}/say-signed/${key.did}/${sig}/${nonce}/${enc(text)}`;
}

function claim(key: SigningKey, room: string, nonce: number): string {
  const sig = key.sign(`room-owners|${room}|${nonce}|${key.did}`);
  return `/kv/room-owners/${room}/set-signed/${key.did}/${sig}/${nonce}/${enc(key.did)}`;
}

describe('room-creation budget and capacity through HTTP', () => {
  let t: TestApp;
  let clock: ManualClock;
  const start = async (overrides: Partial<AppConfig>): Promise<void> => {
    clock = new ManualClock();
    t = await TestApp.start(overrides, clock);
  };
  afterEach(() => t.close());

  it('refuses a new room past the daily budget with 429 and Retry-After, leaving existing rooms open', async () => {
    await start({ rateRoomsPerDay: 2 });
    expect((await t.getPath('/r/one/say/a/hi')).status).toBe(200);
    expect((await t.getPath('/r/two/say/a/hi')).status).toBe(200);
    const refused = await t.getPath('/r/three/say/a/hi?format=json');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('43200');
    expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = refused.body.split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(
      '429 room-creation budget spent: /r/three does not exist yet, and this IP has used its 2 new rooms for the day.',
    );
    expect(lines[1]).toMatch(/^retry after: 43200s — .*one room every 43200s.*up to 2\.$/);
    expect(lines[2]).toMatch(
      /^still open: writing to rooms that already exist is unaffected; \/rooms .*\/r\/events.*\/r\/lobby/,
    );
    expect(lines[3]).toMatch(/^why: .*\(5120 on this instance\).* 7 days/);
    expect(lines[4]).toMatch(/limits\.new_rooms_per_day_per_ip\.$/);
    expect((await t.getPath('/r/one/say/a/still%20fine')).status).toBe(200);
    expect((await t.getPath('/r/three')).status).toBe(200); // reads never touch the budget
    clock.advanceMs(43_199_000);
    expect((await t.getPath('/r/three/say/a/hi')).headers['retry-after']).toBe('1');
    clock.advanceMs(1_000);
    expect((await t.getPath('/r/three/say/a/hi')).status).toBe(200);
  });

  it('checks the budget last in the gate: events, mailbox, name and owned-room refusals come first', async () => {
    await start({ rateRoomsPerDay: 1 });
    const owner = generateSigningKey();
    const stranger = generateSigningKey();
    expect((await t.getPath(claim(owner, 'd-club', 1))).status).toBe(200);
    expect((await t.getPath('/r/spend/say/a/the%20only%20new%20room')).status).toBe(200);

    expect((await t.getPath('/r/events/say/a/hi')).status).toBe(403);
    expect((await t.getPath('/r/mb-box/say/a/hi')).status).toBe(403);
    expect((await t.getPath('/r/Bad/say/a/hi')).status).toBe(400);
    expect((await t.getPath('/r/d-club/say/a/hi')).body).toMatch(/^403 \/r\/d-club is an owned room/);
    expect((await t.getPath(saySigned(stranger, 'd-club', 1, 'hi'))).body).toMatch(/^403 .* is not listed/);
    expect((await t.getPath(saySigned(owner, 'd-club', 1, 'hi'))).status).toBe(429);
    expect((await t.getPath(saySigned(stranger, 'mb-box', 1, 'hi'))).status).toBe(429); // signed mailbox: passes
    expect((await t.getPath('/r/new/say/BAD/hi')).status).toBe(429); // before the nick
    expect((await t.getPath('/r/new/say/a/%20')).status).toBe(429); // before the text
    expect((await t.post('/r/new', { text: 'no from' })).status).toBe(429); // before `from`
    expect((await t.post('/r/new', '{broken')).status).toBe(400); // the body comes before the gate
  });

  it('refunds the token when the write does not create the room', async () => {
    await start({ rateRoomsPerDay: 1 });
    const budget = t.get(RoomCreationBudget);
    expect((await t.getPath('/r/p-new/say/BAD/hi')).status).toBe(400); // nick refused after the charge
    expect((await t.getPath('/r/p-new/say/a/%E2%80%8B')).status).toBe(400); // empty text
    expect((await t.post('/r/p-new', { from: 7, text: 'x' })).status).toBe(400); // from
    expect((await t.getPath('/r/p-new/say/a/hi')).status).toBe(200); // the one token was still there
    expect(budget.size).toBe(1);
    expect((await t.getPath('/r/p-other/say/a/hi')).status).toBe(429);
  });

  it('charges concurrent first writers to one new room once', async () => {
    await start({ rateRoomsPerDay: 1 });
    const replies = await Promise.all([
      t.post('/r/p-race?format=json', { from: 'a', text: 'first' }),
      t.post('/r/p-race?format=json', { from: 'b', text: 'second' }),
      t.getPath('/r/p-race/say/c/third?format=json'),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(replies.map((r) => (json(r).posted as { seq: number }).seq).sort()).toEqual([1, 2, 3]);
    expect((await t.getPath('/r/p-next/say/a/hi')).status).toBe(429);
  });

  it('refunds re-creations after a reap (seq continues) and a duplicate 422, which comes after the budget', async () => {
    await start({ rateRoomsPerDay: 2, stillbornSeconds: 3600, dupeFilterSeconds: 7200, dupeMaxCopies: 1 });
    const text = enc('the same long sentence again');
    expect((await t.getPath(`/r/p-x/say/a/${text}`)).status).toBe(200); // token 1 of 2
    clock.advanceMs(3_601_000);
    expect(await t.get(RoomReaperService).pass()).toBeGreaterThan(0);
    expect((await t.getPath('/r/p-x/export')).body).toBe(''); // reaped

    const duplicate = await t.getPath(`/r/p-x/say/a/${text}`); // charged, then refused, then refunded
    expect(duplicate.status).toBe(422);
    const recreated = json(await t.getPath('/r/p-x/say/a/back%20again?format=json'));
    expect((recreated.posted as { seq: number }).seq).toBe(2); // charged, seq ≠ 1: refunded
    expect((await t.getPath(`/r/p-y/say/a/${text}`)).status).toBe(200); // token 2 of 2
    expect((await t.getPath('/r/p-z/say/a/hi')).status).toBe(429);

    clock.advanceMs(3_601_000);
    await t.get(RoomReaperService).pass();
    expect((await t.getPath('/r/p-y/export')).body).toBe(''); // reaped
    const both = await t.getPath(`/r/p-y/say/a/${text}`); // a new room and a duplicate text
    expect(both.status).toBe(429); // the budget is checked before the duplicate filter
  });

  it('refuses new rooms past CHAT_MAX_ROOMS with 400 after the lane checks, and refunds the token', async () => {
    await start({ maxRooms: 2, rateRoomsPerDay: 3 });
    expect((await t.getPath('/r/p-a/say/a/hi')).status).toBe(200);
    expect((await t.getPath('/r/p-b/say/a/hi')).status).toBe(200);
    expect((await t.getPath('/r/p-c/say/BAD/hi')).body).toMatch(/^400 bad name 'BAD'/);
    expect((await t.getPath('/r/p-c/say/a/%20')).body).toMatch(/^400 empty text/);
    const full = await t.getPath('/r/p-c/say/a/hi');
    expect(full.status).toBe(400);
    expect(full.body).toMatch(/^400 room limit reached \(2 is the cap\): write to an existing room instead/);
    expect((await t.post('/r/p-c', { from: 'a', text: 'hi' })).status).toBe(400);
    expect((await t.getPath('/r/p-a/say/a/existing%20rooms%20still%20write')).status).toBe(200);
    expect((await t.getPath('/r/p-c')).status).toBe(200);
  });
});
