import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AddressInfo } from 'node:net';
import { generateSigningKey } from '../../src/identity/signing-key';
import { MCP_TOOLS } from '../../src/docs/mcp-tool-catalog';
import { TestApp } from '../support/test-app';

/** The first text block of a tool result. */
function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content[0].type === 'text' ? content[0].text : '';
}

describe('MCP at /mcp, through the official SDK client on a real port', () => {
  let t: TestApp;
  let base: string;
  let client: Client;

  beforeAll(async () => {
    t = await TestApp.start();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  const call = (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  it('introduces itself as technocore-chat 0.14.5 and lists the reference tools', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'technocore-chat', version: '0.14.5' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOLS.map((tool) => tool.name).sort());
    const writeNote = tools.find((tool) => tool.name === 'write_note')!;
    // The reference's arguments in its order, then the optional addition (issue 28).
    expect(Object.keys(writeNote.inputSchema.properties ?? {})).toEqual([
      'namespace',
      'key',
      'value',
      'if_matches',
      'if_absent',
      'idempotency_key',
    ]);
  });

  it('waits on several rooms at once with wait_for_messages, handing back one cursor', async () => {
    await t.getPath('/r/mcp-w1/say/ann/before');
    const waiting = call('wait_for_messages', { rooms: 'mcp-w1:1,mcp-w2:0', seconds: 5 });
    await new Promise((r) => setTimeout(r, 100));
    await t.getPath('/r/mcp-w2/say/bob/wake%20up');
    const text = textOf(await waiting);
    expect(text.split('\n')[0]).toBe('# watch  rooms 2  messages 1');
    expect(text).toMatch(/^\[mcp-w2 1\] \S+ <~bob> wake up$/m);
    expect(text).toContain('\nnext: /watch?rooms=mcp-w1:1:1,mcp-w2:1:1\n');
    const bad = await call('wait_for_messages', { rooms: 'Bad', seconds: 0 });
    expect([bad.isError, textOf(bad).startsWith("400 bad rooms: 'Bad' is not a room name")]).toEqual([
      true,
      true,
    ]);
  });

  it('makes a retried say and write_note safe with idempotency_key', async () => {
    const key = 'mcp-retry-0000-0001';
    const first = textOf(
      await call('say', { room: 'mcp-keyed', text: 'only once', nick: 'ann', idempotency_key: key }),
    );
    const again = textOf(
      await call('say', { room: 'mcp-keyed', text: 'only once', nick: 'ann', idempotency_key: key }),
    );
    expect(again).toBe(first);
    expect(again.split('\n')[0]).toBe('# room mcp-keyed  messages 1  range 1..1');
    const reused = await call('say', { room: 'mcp-keyed', text: 'other', nick: 'ann', idempotency_key: key });
    expect([reused.isError, textOf(reused).startsWith('422 idempotency key reused:')]).toEqual([true, true]);
    const note = {
      namespace: 'mcp-keyed-ns',
      key: 'once',
      value: 'v',
      if_absent: true,
      idempotency_key: key,
    };
    expect(textOf(await call('write_note', note))).toBe(textOf(await call('write_note', note)));
    const short = await call('say', { room: 'mcp-keyed', text: 'x', idempotency_key: 'short' });
    expect(textOf(short).startsWith("400 bad idempotency_key: 'short'")).toBe(true);
  });

  it('round-trips say → read_room → write_note → read_note with the routes’ own text', async () => {
    const said = textOf(await call('say', { room: 'mcp-room', text: 'hello from mcp', nick: 'alice' }));
    expect(said.split('\n')[0]).toBe('# room mcp-room  messages 1  range 1..1');
    const read = await call('read_room', { room: 'mcp-room', since: 0 });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toBe((await t.getPath('/r/mcp-room?since=0')).body);
    expect(textOf(read)).toMatch(/^\[1\] \S+ <~alice> hello from mcp$/m);

    const wrote = textOf(
      await call('write_note', { namespace: 'mcp-ns', key: 'status', value: 'ready to ship' }),
    );
    expect(wrote).toMatch(/^ok mcp-ns\/status 13B \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z\n$/);
    const note = textOf(await call('read_note', { namespace: 'mcp-ns', key: 'status' }));
    expect(note).toBe((await t.getPath('/kv/mcp-ns/status')).body);
    expect(note.endsWith('\n\nready to ship\n')).toBe(true);
  });

  it("returns a room's signed head with room_head, and the 404 of a room that never existed (issue 29)", async () => {
    await call('say', { room: 'mcp-head', text: 'a record to sign', nick: 'n' });
    const head = JSON.parse(textOf(await call('room_head', { room: 'mcp-head' })));
    const viaHttp = JSON.parse((await t.getPath('/r/mcp-head/head')).body);
    expect(head).toMatchObject({
      room: 'mcp-head',
      last_seq: 1,
      head: viaHttp.head,
      service_did: viaHttp.service_did,
    });
    expect(head.head).toBe((await t.getPath('/r/mcp-head/export')).headers['x-chain-head']);
    const missing = await call('room_head', { room: 'mcp-no-head' });
    expect([missing.isError, textOf(missing).startsWith('404 no room mcp-no-head')]).toEqual([true, true]);
  });

  it('answers refusals as error results carrying the HTTP error body', async () => {
    const missing = await call('read_note', { namespace: 'mcp-ns', key: 'nothing-here' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe((await t.getPath('/kv/mcp-ns/nothing-here')).body);
    expect(textOf(missing).startsWith('404 no note mcp-ns/nothing-here')).toBe(true);
    const badName = await call('read_room', { room: 'Bad Name' });
    expect(badName.isError).toBe(true);
    expect(textOf(badName).startsWith("400 bad name 'Bad Name'")).toBe(true);
    await call('write_note', { namespace: 'mcp-ns', key: 'cas', value: 'one' });
    const lost = await call('write_note', {
      namespace: 'mcp-ns',
      key: 'cas',
      value: 'two',
      if_matches: 'zero',
    });
    expect(lost.isError).toBe(true);
    expect(textOf(lost).split('\n').slice(-2)).toEqual(['one', '']);
  });

  it('serves listings, discovery, notes lists, documents and whoami', async () => {
    await call('say', { room: 'second-room', text: 'hi', nick: 'bob' });
    expect(textOf(await call('list_rooms', { limit: 5 }))).toMatch(/^\/r\/second-room +seq 1 /m);
    expect(textOf(await call('discover_rooms'))).toMatch(/<~server> created second-room$/m);
    expect(textOf(await call('list_notes', { namespace: 'mcp-ns', limit: 1 }))).toMatch(
      /^\/kv\/mcp-ns\/cas\n# 1 of 2 keys shown/,
    );
    const host = { host: base.slice('http://'.length) }; // the documents' links follow the Host header
    const skill = await t.request('GET', '/skill.md', undefined, host);
    expect(textOf(await call('read_docs', { page: 'skill' }))).toBe(skill.body);
    expect(textOf(await call('read_docs'))).toContain('\nSIGNING\n');
    expect(textOf(await call('whoami'))).toMatch(/^default nick: anon-[0-9a-f]{6}/m);
    const said = textOf(await call('say', { room: 'second-room', text: 'no nick given' }));
    expect(said).toMatch(/<~anon-[0-9a-f]{6}> no nick given$/m);
  });

  it('hands out the exact string to sign when a signed tool gets no signature', async () => {
    const hint = await call('say_signed', { room: 'signed-room', text: '  hello\tthere ' });
    expect(hint.isError).toBeFalsy();
    expect(textOf(hint)).toMatch(/\nsigned-room\|\d+\|hello there\n$/);
    const mixed = await call('say_signed', { room: 'signed-room', text: 'x', sig: 'abc' });
    expect(mixed.isError).toBe(true);
    expect(textOf(mixed).startsWith('400 ')).toBe(true);
  });

  it('writes signed messages and claims an owned room with a caller-made signature', async () => {
    const key = generateSigningKey();
    const nonce = '1700000000000';
    const sig = key.sign(`signed-room|${nonce}|signed hello`);
    const said = await call('say_signed', {
      room: 'signed-room',
      text: 'signed hello',
      did: key.did,
      sig,
      nonce,
    });
    expect(said.isError).toBeFalsy();
    const abbreviated = `${key.did.slice(8, 12)}…${key.did.slice(-4)}`;
    expect(textOf(said)).toMatch(new RegExp(`<${abbreviated}> signed hello$`, 'm'));

    const hint = textOf(await call('claim_room', { room: 'd-mcp-owned', did: key.did }));
    const canonical = hint.trimEnd().split('\n').pop()!;
    expect(canonical).toMatch(new RegExp(`^room-owners\\|d-mcp-owned\\|\\d+\\|${key.did}$`));
    const claimNonce = canonical.split('|')[2];
    const claim = { room: 'd-mcp-owned', did: key.did, sig: key.sign(canonical), nonce: claimNonce };
    const claimed = await call('claim_room', claim);
    expect(textOf(claimed)).toMatch(/^ok room-owners\/d-mcp-owned \d+B \S+ signed by z6Mk…/);
    const refused = await call('say', { room: 'd-mcp-owned', text: 'unsigned', nick: 'mallory' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused).startsWith('403 ')).toBe(true);
  });

  it('reads the JSON-RPC body like every POST body: malformed JSON is the text 400', async () => {
    const reply = await t.request('POST', '/mcp', '{"jsonrpc":', { 'content-type': 'application/json' });
    expect(reply.status).toBe(400);
    expect(reply.body.startsWith('400 body must be JSON')).toBe(true);
  });

  it('refuses GET on /mcp (stateless: no stream to open) with the 405 route convention', async () => {
    const reply = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('POST');
  });
});
