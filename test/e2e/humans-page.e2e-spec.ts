/// <reference lib="dom" />
// The page functions below run inside Chromium, where the DOM exists.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { HUMANS_SIGNATURES_SCRIPT } from '../../src/humans/assets/humans-signatures-script';
import { messageSigningPayload } from '../../src/identity/signing-payload';
import { generateSigningKey, SigningKey } from '../../src/identity/signing-key';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Everything the page must never do: dialogs (an injected script ran), console errors, CSP violations. */
interface Incidents {
  readonly dialogs: string[];
  readonly errors: string[];
}

async function openPage(
  browser: Browser,
  url: string,
  viewport = { width: 1280, height: 800 },
  beforeLoad?: (page: Page) => Promise<unknown>,
) {
  const page = await browser.newPage({ viewport });
  await beforeLoad?.(page);
  const incidents: Incidents = { dialogs: [], errors: [] };
  page.on('dialog', (dialog) => {
    incidents.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    // A room without a topic note, or a service without GET /r/{room}/head, answers 404: the page
    // expects that and hides the element, but Chromium still logs every failed load.
    if (message.type() === 'error' && !EXPECTED_404.test(message.location().url))
      incidents.errors.push(message.text());
  });
  page.on('pageerror', (error) => incidents.errors.push(error.message));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  await page.goto(url);
  return { page, incidents };
}

const EXPECTED_404 = /\/kv\/topic\/[^/]+$|\/r\/[^/]+\/head$/;
const messages = (page: Page) => page.locator('ol.messages li .text');

async function post(service: ServiceProcess, room: string, body: object): Promise<Response> {
  return fetch(service.url(`/r/${room}`), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A signed-lane POST: the signature covers `<room>|<nonce as sent>|<text>` (contract §8.6). */
async function postSigned(
  service: ServiceProcess,
  key: SigningKey,
  room: string,
  nonce: string,
  text: string,
) {
  const sig = key.sign(messageSigningPayload(room, nonce, text));
  const reply = await post(service, room, { did: key.did, sig, nonce, text });
  expect(reply.status).toBe(200);
}

/** Where an element is, relative to the window and to the scrolling timeline. */
function placement(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const box = document.querySelector(sel)!.getBoundingClientRect();
    const timeline = document.querySelector('.timeline')!.getBoundingClientRect();
    return {
      inWindow: box.top >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth,
      inTimeline: box.top >= timeline.top && box.bottom <= timeline.bottom + 1,
      pageScrolls: document.documentElement.scrollHeight > window.innerHeight,
    };
  }, selector);
}

/**
 * Issue 17: the /humans page in a real browser (Debian's Chromium driven by playwright-core): live
 * rooms without reloads, posting, notes, hostile text that stays text, and WebMCP tools.
 */
describe('/humans in headless Chromium', () => {
  const dir = makeTempDir('agent-chat-humans');
  const shots = makeTempDir('agent-chat-humans-shots');
  let service: ServiceProcess;
  let browser: Browser;
  beforeAll(async () => {
    service = await ServiceProcess.start({ CHAT_ROOT: dir.path });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_FLAGS,
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await service.stop();
    dir.remove();
    shots.remove();
  });

  it('serves the page with a strict CSP, no referrer, the Link header and long-lived hashed assets', async () => {
    const reply = await fetch(service.url('/humans'));
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = reply.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(reply.headers.get('referrer-policy')).toBe('no-referrer');
    expect(reply.headers.get('link')).toContain('rel="service-desc"');
    const html = await reply.text();
    expect(html).not.toMatch(/<script>|\son[a-z]+=/i); // no inline script, no inline handlers
    const assets = [...html.matchAll(/(?:src|href)="(\/humans\/app\.[0-9a-f]{16}\.(?:js|css))"/g)].map(
      (m) => m[1],
    );
    expect(assets).toHaveLength(2);
    let size = Buffer.byteLength(html);
    for (const path of assets) {
      const asset = await fetch(service.url(path));
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      size += (await asset.arrayBuffer()).byteLength;
    }
    expect(size).toBeLessThan(50 * 1024);
    expect((await fetch(service.url('/humans/app.0000000000000000.js'))).status).toBe(404);
  });

  it('posts a message and shows it, and shows another client’s message, without a reload', async () => {
    await fetch(service.url('/r/lobby/say/ann/first'));
    const { page, incidents } = await openPage(browser, service.url('/humans#/r/lobby'));
    await expectText(messages(page).first(), 'first');
    let reloads = 0;
    page.on('framenavigated', () => reloads++);
    await page.fill('form.post input[name=nick]', 'tester');
    await page.fill('form.post input[name=text]', 'typed in the browser');
    await page.click('form.post button');
    await expectText(messages(page).nth(1), 'typed in the browser');
    await fetch(service.url('/r/lobby/say/bob/written%20through%20the%20API'));
    await expectText(messages(page).nth(2), 'written through the API');
    expect(reloads).toBe(0);
    expect(incidents).toEqual({ dialogs: [], errors: [] });
    await page.close();
  }, 60_000);

  it('renders hostile messages as plain text and runs none of them', async () => {
    const hostile = ['<script>alert(1)</script>', '<img src=x onerror=alert(2)>', 'javascript:alert(3)'];
    for (const text of hostile) {
      const reply = await fetch(service.url('/r/hostile'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: 'mallory', text }),
      });
      expect(reply.status).toBe(200);
    }
    const { page, incidents } = await openPage(browser, service.url('/humans#/r/hostile'));
    await expectText(messages(page).nth(2), 'javascript:alert(3)');
    expect(await messages(page).allTextContents()).toEqual(hostile);
    expect(await page.locator('main img, main script, main [onerror]').count()).toBe(0);
    expect(await page.locator('main a[href^="javascript:"]').count()).toBe(0);
    await page.locator('ol.messages li').first().hover();
    expect(incidents).toEqual({ dialogs: [], errors: [] });
    await page.close();
  }, 60_000);

  it('shows the API’s own refusal text, lists rooms, and reads and writes notes', async () => {
    const { page, incidents } = await openPage(browser, service.url('/humans#/r/lobby'));
    await page.fill('form.post input[name=text]', ' ');
    await page.evaluate(() =>
      document.querySelector<HTMLInputElement>('form.post input[name=text]')!.removeAttribute('required'),
    );
    await page.click('form.post button');
    await expectText(page.locator('#status.error'), '400');
    await page.goto(service.url('/humans#/'));
    await expectText(page.locator('main ul.rooms'), 'lobby');
    await page.goto(service.url('/humans#/kv/team'));
    await page.fill('form.note input[name=key]', 'plan');
    await page.fill('form.note textarea[name=value]', 'ship <it> & stay');
    await page.click('form.note button');
    await expectText(page.locator('main ul'), 'plan');
    expect(await (await fetch(service.url('/kv/team/plan'))).text()).toContain('ship <it> & stay');
    await page.goto(service.url('/humans#/kv/team/plan'));
    await page.waitForFunction(() => document.querySelector('textarea')?.value === 'ship <it> & stay');
    expect(incidents.dialogs).toEqual([]);
    expect(incidents.errors.filter((e) => !/Failed to load resource: .*400/.test(e))).toEqual([]);
    await page.close();
  }, 60_000);

  it('registers the eight WebMCP tools when navigator.modelContext exists, and they call the lanes', async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      const tools: Record<string, { execute(args: unknown): unknown }> = {};
      (navigator as unknown as { modelContext: unknown }).modelContext = {
        registerTool: (tool: { name: string; execute(args: unknown): unknown }) => (tools[tool.name] = tool),
      };
      (window as unknown as { __tools: unknown }).__tools = tools;
    });
    await page.goto(service.url('/humans'));
    await page.waitForFunction(
      () => Object.keys((window as unknown as { __tools: object }).__tools).length === 8,
    );
    const names = await page.evaluate(() =>
      Object.keys((window as unknown as { __tools: object }).__tools).sort(),
    );
    expect(names).toEqual([
      'get_manual',
      'list_notes',
      'list_rooms',
      'open_room',
      'post_message',
      'read_note',
      'read_room',
      'write_note',
    ]);
    await page.evaluate(() =>
      (
        window as unknown as { __tools: Record<string, { execute(a: unknown): Promise<unknown> }> }
      ).__tools.post_message.execute({
        room: 'webmcp',
        from: 'agent',
        text: 'via WebMCP',
      }),
    );
    expect(await (await fetch(service.url('/r/webmcp'))).text()).toContain('via WebMCP');
    await page.close();
    // Without navigator.modelContext the page simply has no tools and no errors.
    const { page: plain, incidents } = await openPage(browser, service.url('/humans'));
    await expectText(plain.locator('main'), 'lobby');
    expect(incidents).toEqual({ dialogs: [], errors: [] });
    await plain.close();
  }, 60_000);

  it('fits a phone screen and keeps working at 200 % zoom', async () => {
    const { page, incidents } = await openPage(browser, service.url('/humans#/r/lobby'), {
      width: 390,
      height: 844,
    });
    await expectText(messages(page).first(), 'first');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.evaluate(() => (document.body.style.zoom = '2'));
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('A');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth * 1.01)).toBe(
      true,
    );
    expect(incidents).toEqual({ dialogs: [], errors: [] });
    await page.close();
  }, 60_000);

  // Issues 28 and 29: a room reads like a chat.
  it('opens a room of 200 messages at the newest, in view above the composer, at desktop and phone width', async () => {
    for (let i = 1; i <= 200; i++)
      expect((await post(service, 'busy', { from: 'ann', text: `message ${i}` })).status).toBe(200);
    expect((await fetch(service.url('/kv/topic/busy/set/a%20busy%20room'))).status).toBe(200);
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      // The topic and the signed head answer late (the real answers, held 1.5 s in the browser),
      // so the room bar grows after the first page was scrolled to the newest message.
      const { page, incidents } = await openPage(browser, service.url('/humans#/r/busy'), viewport, (p) =>
        p.route(/\/(kv\/topic\/busy|r\/busy\/head)$/, async (route) => {
          if (route.request().method() === 'GET') await new Promise((resolve) => setTimeout(resolve, 1500));
          await route.continue();
        }),
      );
      await expectText(page.locator('#m200 .text'), 'message 200');
      expect(await messages(page).first().textContent()).toBe('message 101'); // the newest page
      await page.locator('.room-bar .head').waitFor({ state: 'visible' });
      await expectText(page.locator('.room-bar .topic .text'), 'a busy room');
      expect(await placement(page, '#m200')).toEqual({
        inWindow: true,
        inTimeline: true,
        pageScrolls: false,
      });
      expect(await placement(page, 'form.post')).toMatchObject({ inWindow: true, pageScrolls: false });
      expect(await page.getByLabel('message', { exact: true }).isVisible()).toBe(true);
      // Older pages come on request, and what was on screen stays put.
      await page.click('button.older');
      await expectText(page.locator('#m1 .text'), 'message 1');
      expect(await page.locator('ol.messages li').count()).toBe(200);
      expect(incidents).toEqual({ dialogs: [], errors: [] });
      await page.close();
    }
  }, 180_000);

  it('follows the room over Server-Sent Events: another client’s message appears without a reload', async () => {
    await post(service, 'streamed', { from: 'ann', text: 'before' });
    const { page, incidents } = await openPage(browser, service.url('/humans#/r/streamed'));
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await expectText(messages(page).first(), 'before');
    await expectText(page.locator('#status'), 'live: streamed'); // the stream said ready
    let reloads = 0;
    page.on('framenavigated', () => reloads++);
    await post(service, 'streamed', { from: 'bob', text: 'pushed live' });
    await expectText(messages(page).nth(1), 'pushed live');
    expect(reloads).toBe(0);
    expect(requests.filter((url) => url.includes('wait='))).toEqual([]); // no long-poll ran
    expect(await page.locator('ol.messages li').count()).toBe(2); // nothing twice
    expect(incidents).toEqual({ dialogs: [], errors: [] });
    await page.close();
  }, 60_000);

  it('falls back to long-poll where EventSource is missing', async () => {
    await post(service, 'polled', { from: 'ann', text: 'before' });
    const page = await browser.newPage();
    await page.addInitScript(() => delete (window as unknown as { EventSource?: unknown }).EventSource);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(service.url('/humans#/r/polled'));
    await expectText(messages(page).first(), 'before');
    await expectText(page.locator('#status'), 'long-poll');
    await post(service, 'polled', { from: 'bob', text: 'polled in' });
    await expectText(messages(page).nth(1), 'polled in');
    expect(requests.some((url) => url.includes('/r/polled?format=json&since=1&wait='))).toBe(true);
    expect(requests.some((url) => url.includes('/sse'))).toBe(false);
    await page.close();
  }, 60_000);

  it('reads live by long-poll when the service refuses the stream', async () => {
    const refusing = makeTempDir('agent-chat-humans-nostreams');
    const other = await ServiceProcess.start({ CHAT_ROOT: refusing.path, CHAT_MAX_STREAMS_TOTAL: '0' });
    try {
      await post(other, 'crowded', { from: 'ann', text: 'before' });
      const page = await browser.newPage();
      const refused: number[] = [];
      page.on('response', (response) => {
        if (response.url().includes('/sse')) refused.push(response.status());
      });
      await page.goto(other.url('/humans#/r/crowded'));
      await expectText(messages(page).first(), 'before');
      await expectText(page.locator('#status'), 'long-poll');
      await post(other, 'crowded', { from: 'bob', text: 'still live' });
      await expectText(messages(page).nth(1), 'still live');
      expect(refused).toEqual([429]);
      await page.close();
    } finally {
      await other.stop();
      refusing.remove();
    }
  }, 120_000);

  it('takes the keyboard from the top of a room to the composer in a few tabs, and Enter sends', async () => {
    for (let i = 1; i <= 30; i++) await post(service, 'keys', { from: 'ann', text: `line ${i}` });
    const page = await browser.newPage();
    await page.goto(service.url('/humans#/r/keys'));
    await expectText(page.locator('#m30 .text'), 'line 30');
    let presses = 0;
    while ((await page.evaluate(() => document.activeElement?.id)) !== 'post-text' && presses < 15) {
      await page.keyboard.press('Tab');
      presses++;
    }
    expect(presses).toBeLessThan(15);
    await page.keyboard.type('sent from the keyboard');
    await page.keyboard.press('Enter');
    await expectText(page.locator('#m31 .text'), 'sent from the keyboard');
    expect(await page.getByLabel('nickname').inputValue()).toBe('human');
    await page.close();
  }, 60_000);

  it('marks signed messages: verified, invalid when the record does not re-verify, none on unsigned ones', async () => {
    const key = generateSigningKey();
    await post(service, 'signed', { from: 'ann', text: 'plain' });
    await postSigned(service, key, 'signed', '1', 'signed and sound');
    // A nonce beyond 2^53: the page must keep every stored digit to rebuild the signed string.
    await postSigned(service, key, 'signed', '9007199254740993', 'a big nonce');
    // The service accepts a nonce sent with leading zeros but stores its integer (contract §6.1), so
    // the record alone no longer re-verifies: exactly what a reader of the record must be told.
    await postSigned(service, key, 'signed', '09007199254740994', 'leading zero');
    const { page, incidents } = await openPage(browser, service.url('/humans#/r/signed'));
    await expectText(messages(page).nth(3), 'leading zero');
    await page.waitForFunction(() => document.querySelectorAll('.sig.verified, .sig.invalid').length === 3);
    expect(await page.locator('#m1 .sig').count()).toBe(0);
    expect(await page.locator('#m2 .sig').getAttribute('class')).toBe('sig verified');
    expect(await page.locator('#m3 .sig').getAttribute('class')).toBe('sig verified');
    expect(await page.locator('#m4 .sig').getAttribute('class')).toBe('sig invalid');
    expect(await page.locator('#m2 .from').getAttribute('title')).toBe(key.did);
    // A signed message arriving live is checked too.
    await postSigned(service, key, 'signed', '9007199254740995', 'live and signed');
    await page.waitForFunction(() => document.querySelector('#m5 .sig.verified') !== null);
    // Chromium's own WebCrypto on a record tampered after signing (the service refuses such writes).
    const record = JSON.parse(
      (await (await fetch(service.url('/r/signed?format=json'))).text()).split('\n')[0],
    ).messages[1];
    const marks = await page.evaluate(
      `(async () => { ${HUMANS_SIGNATURES_SCRIPT}
        const record = ${JSON.stringify(record)};
        return [await signatureMark('signed', record), await signatureMark('signed', { ...record, text: 'signed and s0und' })];
      })()`,
    );
    expect(marks).toEqual(['verified', 'invalid']);
    expect(incidents).toEqual({ dialogs: [], errors: [] });
    await page.close();
  }, 60_000);

  it('shows relative times with the exact stored time on hover', async () => {
    await post(service, 'timed', { from: 'ann', text: 'when?' });
    const stored = (await (await fetch(service.url('/r/timed?format=json'))).json()) as {
      messages: { ts: string }[];
    };
    const page = await browser.newPage();
    await page.addInitScript(() => {
      const real = Date.now.bind(Date);
      Date.now = () => real() + 150_000; // the reader's clock is two and a half minutes on
    });
    await page.goto(service.url('/humans#/r/timed'));
    const time = page.locator('#m1 time');
    await expectText(time, '2 min ago');
    expect(await time.getAttribute('title')).toBe(stored.messages[0].ts);
    expect(await time.getAttribute('datetime')).toBe(stored.messages[0].ts);
    await page.close();
  }, 60_000);

  it('shows the topic, links to editing it, and reaches notes from the index in one click', async () => {
    await post(service, 'topical', { from: 'ann', text: 'hello' });
    await fetch(service.url('/kv/topic/topical/set/where%20we%20plan%20things'));
    const { page, incidents } = await openPage(browser, service.url('/humans#/r/topical'));
    await expectText(page.locator('.room-bar .topic'), 'where we plan things');
    expect(await page.locator('.room-bar .topic a').getAttribute('href')).toBe('#/kv/topic/topical');
    await page.goto(service.url('/humans#/'));
    await page.locator('section.notes-home a', { hasText: 'topic' }).click();
    await expectText(page.locator('main h2'), 'Notes topic');
    await expectText(page.locator('main ul'), 'topical');
    await page.goto(service.url('/humans#/'));
    await page.locator('header nav a', { hasText: 'notes' }).click();
    await expectText(page.locator('main section.notes-home'), 'room-owners');
    expect(incidents).toEqual({ dialogs: [], errors: [] });
    await page.close();
  }, 60_000);

  it('shows the room’s signed head where the service has one, and hides it quietly where not', async () => {
    await post(service, 'headed', { from: 'ann', text: 'one' });
    const reply = await fetch(service.url('/r/headed/head'));
    const { page, incidents } = await openPage(browser, service.url('/humans#/r/headed'));
    await expectText(messages(page).first(), 'one');
    if (reply.status === 404) {
      // The head read runs beside the room read: open again, wait for its answer, then a moment.
      const answered = page.waitForResponse((response) => response.url().endsWith('/r/headed/head'));
      await page.reload();
      expect((await answered).status()).toBe(404);
      await expectText(messages(page).first(), 'one');
      await page.waitForTimeout(200);
      expect(await page.locator('.room-bar .head').isHidden()).toBe(true);
    } else {
      const head = (await reply.json()) as { head: string; last_seq: number };
      await expectText(page.locator('.room-bar .head'), `${head.head.slice(0, 12)}… at #${head.last_seq}`);
    }
    // What the page shows for the route's documented answer (issue 29), served here by the test.
    const hash = 'ab'.repeat(32);
    await page.route('**/r/headed/head', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          room: 'headed',
          generation: 1,
          first_seq: 1,
          last_seq: 7,
          anchor: '00'.repeat(32),
          head: hash,
          time: '2026-11-27T18:00:00.000000Z',
          service_did: 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH',
          signature: 'A'.repeat(86),
        }),
      }),
    );
    await page.reload();
    await expectText(page.locator('.room-bar .head'), `signed head ${hash.slice(0, 12)}… at #7`);
    expect(await page.locator('.room-bar .head code').getAttribute('title')).toBe(hash);
    expect(incidents).toEqual({ dialogs: [], errors: [] });
    await page.close();
  }, 60_000);

  it('takes screenshots at desktop and phone width', async () => {
    const key = generateSigningKey();
    await fetch(service.url('/kv/topic/design/set/planning%20the%20next%20release%20of%20the%20page'));
    const conversation: [string, string][] = [
      ['ann', 'Morning. Is the release branch cut?'],
      ['bob', 'Cut at 09:12, tests green on both nodes.'],
      ['ann', 'Good. Who writes the notes?'],
      ['carol', 'I will, draft in /kv/release/notes within the hour.'],
      ['bob', 'Benchmarks are in bench/results, streams are well inside the goal.'],
      ['ann', 'Then we tag after lunch unless someone objects here.'],
      ['carol', 'No objection. Signing the tag from my key below.'],
    ];
    for (const [from, text] of conversation) await post(service, 'design', { from, text });
    await postSigned(service, key, 'design', '1', 'Tag v1.4.0 approved: this message is signed.');
    await post(service, 'design', { from: 'bob', text: 'Verified in the page. Shipping.' });
    for (const [name, viewport] of [
      ['humans.png', { width: 1280, height: 800 }],
      ['humans-phone.png', { width: 390, height: 844 }],
    ] as const) {
      const { page, incidents } = await openPage(browser, service.url('/humans#/r/design'), viewport);
      await page.waitForSelector('#m8 .sig.verified');
      await expectText(page.locator('.room-bar .topic'), 'next release');
      await page.screenshot({ path: join(shots.path, name) });
      const png = readFileSync(join(shots.path, name));
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([viewport.width, viewport.height]);
      expect(incidents).toEqual({ dialogs: [], errors: [] });
      await page.close();
    }
  }, 60_000);
});

async function expectText(locator: ReturnType<Page['locator']>, text: string): Promise<void> {
  await locator.waitFor({ timeout: 15_000 });
  const deadline = Date.now() + 15_000;
  while (!((await locator.textContent()) ?? '').includes(text)) {
    if (Date.now() > deadline)
      throw new Error(`expected ${JSON.stringify(text)} in ${await locator.textContent()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
