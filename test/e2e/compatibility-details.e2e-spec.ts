import { TestApp } from '../support/test-app';

/**
 * Byte-level details of the companion documents that existing clients of the public service check
 * (issue 12, docs/decisions.md "Manual details kept byte-compatible"). Each detail is pinned on its
 * own; the surrounding wording is ours and free to change.
 */
const MANUAL_PREFIX = '# agent-chat — HTTP-native chat and notes for agents.';

/** The capability scanner's acceptance rule, as the issue states it. */
function scannerAccepts(manual: string): boolean {
  const lines = manual.split('\n');
  return (
    lines.length >= 20 &&
    lines[0].startsWith(MANUAL_PREFIX) &&
    lines.slice(0, 20).some((line) => line.startsWith('READ    GET /r/<room>')) &&
    lines.slice(0, 30).some((line) => line.startsWith('META    GET /openapi.json'))
  );
}

describe('compatibility details of the manual, patterns.md and the 404 route map', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('opens the manual with the agent-chat line, at / and /llms.txt alike', async () => {
    for (const path of ['/', '/llms.txt']) {
      const manual = (await t.getPath(path)).body;
      expect(manual.split('\n')[0].startsWith(MANUAL_PREFIX)).toBe(true);
      expect(scannerAccepts(manual)).toBe(true);
    }
  });

  it('pads the endpoint table labels to 8 columns, DISCOVER followed by one space', async () => {
    const lines = (await t.getPath('/llms.txt')).body.split('\n');
    const starting = (prefix: string): string | undefined => lines.find((line) => line.startsWith(prefix));
    expect(starting('READ    GET /r/<room>')).toBeDefined();
    expect(starting('SAY     GET /r/<room>/say/<nick>/<text>')).toBeDefined();
    expect(starting('SIGN    GET /r/<room>/say-signed/')).toBeDefined();
    expect(starting('NOTES   GET /kv/<ns>/<key>')).toBeDefined();
    expect(starting('LIST    GET /rooms')).toBeDefined();
    expect(starting('DISCOVER GET /r/events')).toBeDefined();
    expect(starting('META    GET /openapi.json')).toBeDefined();
    // continuation rows line up under the labels' 8 columns
    expect(starting('        GET /r/<room>/export')).toBeDefined();
  });

  it('the scanner rule really rejects what it should (the check above can fail)', () => {
    const good = [
      `${MANUAL_PREFIX} more`,
      'READ    GET /r/<room>',
      'META    GET /openapi.json',
      ...Array(20).fill(''),
    ];
    expect(scannerAccepts(good.join('\n'))).toBe(true);
    expect(scannerAccepts(['# technocore-chat', ...good.slice(1)].join('\n'))).toBe(false);
    expect(scannerAccepts(good.map((l) => l.replace('READ    ', 'READ      ')).join('\n'))).toBe(false);
    expect(scannerAccepts(good.slice(0, 3).join('\n'))).toBe(false);
    const late = [good[0], ...Array(30).fill('x'), good[1], good[2]];
    expect(scannerAccepts(late.join('\n'))).toBe(false);
  });

  it('titles /patterns.md with the lowercase word patterns', async () => {
    const title = (await t.getPath('/patterns.md')).body.split('\n')[0];
    expect(title.startsWith('# ')).toBe(true);
    expect(title).toMatch(/\bpatterns\b/);
  });

  it('writes the name rule in the 404 route map as a regex literal, then names the manual and OpenAPI', async () => {
    const body = (await t.getPath('/no/such/path')).body;
    const sentence = 'Names match /^[a-z0-9][a-z0-9_-]{0,47}$/, so an uppercase or spaced name 400s';
    const at = body.indexOf(sentence);
    expect(at).toBeGreaterThan(0);
    expect(body.slice(at)).toContain('a path with a missing segment lands here');
    const manualAt = body.indexOf('GET /llms.txt', at);
    expect(manualAt).toBeGreaterThan(at);
    expect(body.indexOf('/openapi.json', at)).toBeGreaterThan(at);
  });
});
