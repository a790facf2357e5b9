import { lastLine, LOOSE_RATES } from '../support/notes-kit';
import { Reply, TestApp } from '../support/test-app';

const TRUE_FORMS = ['1', 'true', 'yes', 'on', 'TRUE', 'Yes', 'oN'];
const FALSE_FORMS = ['', '0', 'false', 'no', 'off', 'FALSE', 'No', 'OFF'];
const BAD_FORMS: Array<[string, string]> = [
  ['2', "'2'"],
  ['y', "'y'"],
  [' 1', "' 1'"],
  ['truee', "'truee'"],
  ["it's", '"it\'s"'],
];
const ACCEPTED = "['', '0', '1', 'false', 'no', 'off', 'on', 'true', 'yes']";

const valueOf = async (t: TestApp, path: string): Promise<string | null> => {
  const reply = await t.getPath(path);
  return reply.status === 200 ? lastLine(reply.body) : null;
};

describe('notes: conditional writes', () => {
  let t: TestApp;
  beforeEach(async () => (t = await TestApp.start(LOOSE_RATES)));
  afterEach(() => t.close());

  it('reads if_absent with the full truth table on GET: true forms create only, false forms are no condition', async () => {
    for (const [i, form] of TRUE_FORMS.entries()) {
      const q = encodeURIComponent(form);
      expect((await t.getPath(`/kv/tt/k${i}/set/first?if_absent=${q}`)).status).toBe(200);
      const again = await t.getPath(`/kv/tt/k${i}/set/second?if_absent=${q}`);
      expect([form, again.status, again.body.split('\n')[0]]).toEqual([
        form,
        409,
        `409 note tt/k${i} already exists`,
      ]);
      expect(await valueOf(t, `/kv/tt/k${i}`)).toBe('first');
    }
    for (const [i, form] of FALSE_FORMS.entries()) {
      await t.getPath(`/kv/ff/k${i}/set/first`);
      const over = await t.getPath(`/kv/ff/k${i}/set/second?if_absent=${encodeURIComponent(form)}`);
      expect([form, over.status]).toEqual([form, 200]);
      expect(await valueOf(t, `/kv/ff/k${i}`)).toBe('second');
    }
    for (const [form, repr] of BAD_FORMS) {
      const bad = await t.getPath(`/kv/bb/k/set/v?if_absent=${encodeURIComponent(form)}`);
      expect([bad.status, bad.body.split('.')[0]]).toEqual([
        400,
        `400 bad if_absent: expected one of ${ACCEPTED}, not ${repr}`,
      ]);
    }
    expect((await t.getPath('/kv/bb/k')).status).toBe(404);
  });

  it('reads if_absent with the full truth table on POST, JSON booleans included, null and numbers refused', async () => {
    const forms: Array<[unknown, boolean]> = [
      ...TRUE_FORMS.map((f): [unknown, boolean] => [f, true]),
      ...FALSE_FORMS.map((f): [unknown, boolean] => [f, false]),
      [true, true],
      [false, false],
    ];
    for (const [i, [form, truthy]] of forms.entries()) {
      await t.post(`/kv/pp/k${i}`, { value: 'first' });
      const reply = await t.post(`/kv/pp/k${i}`, { value: 'second', if_absent: form });
      expect([form, reply.status]).toEqual([form, truthy ? 409 : 200]);
      expect((await t.post(`/kv/pp/new${i}`, { value: 'v', if_absent: form })).status).toBe(200);
    }
    for (const form of [null, 1, 0, 1.5]) {
      const reply = await t.post('/kv/pp/x', { value: 'v', if_absent: form });
      expect([form, reply.status, reply.body]).toEqual([form, 400, '400 bad if_absent: must be a string\n']);
    }
    for (const [form, repr] of BAD_FORMS) {
      const reply = await t.post('/kv/pp/x', { value: 'v', if_absent: form });
      expect(reply.body.split('.')[0]).toBe(`400 bad if_absent: expected one of ${ACCEPTED}, not ${repr}`);
    }
  });

  it('refuses a true if_absent beside if, and treats a false one beside if as plain compare-and-set', async () => {
    const both = await t.getPath('/kv/c/k/set/v?if_absent=1&if=x');
    expect(both.status).toBe(400);
    expect(both.body.startsWith('400 bad if_absent: send one condition, not both')).toBe(true);
    expect((await t.post('/kv/c/k', { value: 'v', if_absent: 'yes', if: '' })).status).toBe(400);
    await t.getPath('/kv/c/k/set/old');
    expect((await t.getPath('/kv/c/k/set/new?if_absent=0&if=wrong')).status).toBe(409);
    expect((await t.getPath('/kv/c/k/set/new?if_absent=off&if=old')).status).toBe(200);
    expect((await t.post('/kv/c/k', { value: 'newer', if_absent: false, if: 'new' })).status).toBe(200);
    expect(await valueOf(t, '/kv/c/k')).toBe('newer');
  });

  it('compare-and-sets with if: exact match wins, anything else is a 409 carrying the value last', async () => {
    await t.getPath(`/kv/c/k/set/${encodeURIComponent('a b+c ☃')}`);
    const lost = await t.getPath('/kv/c/k/set/next?if=a%20b');
    expect(lost.status).toBe(409);
    expect(lost.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = lost.body.split('\n');
    expect(lines[0]).toBe('409 note c/k changed since you read it');
    expect(lines[1]).toBe('');
    expect(lines[2]).toContain('untrusted');
    expect(lines[2]).toContain('?if=');
    expect(lines[3]).toBe('current value follows (7 chars):');
    expect(lines.slice(4)).toEqual(['a b+c ☃', '']);
    const won = await t.getPath(`/kv/c/k/set/next?if=${encodeURIComponent(lastLine(lost.body))}`);
    expect(won.status).toBe(200);
    expect((await t.post('/kv/c/k', { value: 'post', if: 'next' })).status).toBe(200);
    expect((await t.getPath('/kv/c/k/set/x?if=')).status).toBe(409); // a stored value is never empty
    expect((await t.getPath('/kv/c/k/set/x?if=POST')).status).toBe(409); // exact, case included
    expect(await valueOf(t, '/kv/c/k')).toBe('post');
  });

  it('lays out the 409 for if_absent against an existing note, and for if against no note at all', async () => {
    await t.getPath('/kv/c/taken/set/mine');
    const exists = await t.getPath('/kv/c/taken/set/yours?if_absent=1');
    expect(exists.body.split('\n')).toEqual([
      '409 note c/taken already exists',
      '',
      exists.body.split('\n')[2],
      'current value follows (4 chars):',
      'mine',
      '',
    ]);
    const missing = await t.getPath('/kv/c/nothing/set/v?if=old');
    const lines = missing.body.split('\n');
    expect(missing.status).toBe(409);
    expect(lines[0]).toBe('409 note c/nothing changed since you read it');
    expect(lines[1]).toBe('');
    expect(lines[2]).toContain('no note there at all');
    expect(lines[2]).toContain('7 idle days');
    expect(lines[3]).toContain('?if_absent=1');
    expect(lines.length).toBe(5);
    expect((await t.getPath('/kv/c/nothing')).status).toBe(404);
  });

  it('lets exactly one of many concurrent compare-and-set writers win each round', async () => {
    const writers = 16;
    let current = 'v0';
    await t.getPath(`/kv/race/k/set/${current}`);
    for (let round = 1; round <= 12; round++) {
      const attempts = Array.from({ length: writers }, (_, w) => {
        const value = `r${round}-w${w}`;
        return w % 2 === 0
          ? t.getPath(`/kv/race/k/set/${value}?if=${current}`)
          : t.post('/kv/race/k', { value, if: current });
      });
      const replies: Reply[] = await Promise.all(attempts);
      const winners = replies.flatMap((reply, w) => (reply.status === 200 ? [`r${round}-w${w}`] : []));
      expect(winners).toHaveLength(1);
      for (const reply of replies.filter((r) => r.status !== 200)) {
        expect(reply.status).toBe(409);
        expect(lastLine(reply.body)).toBe(winners[0]);
      }
      current = winners[0];
      expect(await valueOf(t, '/kv/race/k')).toBe(current);
    }
  });

  it('lets exactly one of many concurrent if_absent writers create a note', async () => {
    for (let round = 0; round < 5; round++) {
      const replies = await Promise.all(
        Array.from({ length: 16 }, (_, w) => t.getPath(`/kv/claims/k${round}/set/w${w}?if_absent=1`)),
      );
      const winners = replies.flatMap((reply, w) => (reply.status === 200 ? [`w${w}`] : []));
      expect(winners).toHaveLength(1);
      expect(replies.filter((r) => r.status === 409).map((r) => lastLine(r.body))).toEqual(
        Array.from({ length: 15 }, () => winners[0]),
      );
    }
  });
});
