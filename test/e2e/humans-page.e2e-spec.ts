/// <reference lib="dom" />
// The page functions below run inside Chromium, where the DOM exists.
import { mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';

const ROOT = join(__dirname, '..', '..');
const ARTIFACTS = join(ROOT, 'test-artifacts', 'humans');
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

async function openPage(browser: Browser, url: string, viewport = { width: 1280, height: 800 }) {
  const page = await browser.newPage({ viewport });
  const incidents: Incidents = { dialogs: [], errors: [] };
  page.on('dialog', (dialog) => {
    incidents.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') incidents.errors.push(message.text());
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

const messages = (page: Page) => page.locator('ol.messages li .text');

/**
 * Issue 17: the /humans page in a real browser (Debian's Chromium driven by playwright-core): live
 * rooms without reloads, posting, notes, hostile text that stays text, and WebMCP tools.
 */
describe('/humans in headless Chromium', () => {
  const dir = makeTempDir('agent-chat-humans');
  let service: ServiceProcess;
  let browser: Browser;
  beforeAll(async () => {
    service = await ServiceProcess.start({ CHAT_ROOT: dir.path });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_FLAGS,
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await service.stop();
    dir.remove();
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
    await page.screenshot({ path: join(ARTIFACTS, 'room-desktop.png') });
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
    await expectText(page.locator('main table'), 'lobby');
    await page.screenshot({ path: join(ARTIFACTS, 'rooms-desktop.png') });
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

  it('fits a phone screen and keeps working at 200 % zoom; screenshots are kept as artifacts', async () => {
    const { page, incidents } = await openPage(browser, service.url('/humans#/r/lobby'), {
      width: 390,
      height: 844,
    });
    await expectText(messages(page).first(), 'first');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'room-phone.png') });
    await page.evaluate(() => (document.body.style.zoom = '2'));
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('A');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth * 1.01)).toBe(
      true,
    );
    expect(incidents).toEqual({ dialogs: [], errors: [] });
    await page.close();
    copyFileSync(join(ARTIFACTS, 'room-desktop.png'), join(ARTIFACTS, 'latest.png'));
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
