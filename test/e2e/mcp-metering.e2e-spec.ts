import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AddressInfo } from 'node:net';
import { WaitSlots } from '../../src/access/wait-slots';
import { McpServerPool } from '../../src/mcp/mcp-server-pool';
import { TestApp } from '../support/test-app';

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

interface RpcReply {
  readonly status: number;
  readonly text: string;
  readonly result?: CallToolResult;
}

/** Issue 18 item 4: /mcp spends read tokens, reuses its servers and refuses unknown tool arguments. */
describe('MCP metering, server reuse and strict arguments (real port)', () => {
  let t: TestApp;
  let url: string;
  let nextId = 1;

  const rpc = async (method: string, params: Record<string, unknown> = {}): Promise<RpcReply> => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
    const reply = await fetch(url, { method: 'POST', headers: HEADERS, body });
    const text = await reply.text();
    const parsed = reply.headers.get('content-type')?.startsWith('application/json')
      ? (JSON.parse(text) as { result?: CallToolResult })
      : {};
    return { status: reply.status, text, result: parsed.result };
  };
  const callTool = (name: string, args: Record<string, unknown>) =>
    rpc('tools/call', { name, arguments: args });
  const firstText = (reply: RpcReply): string => {
    const block = reply.result?.content[0];
    return block?.type === 'text' ? block.text : '';
  };

  beforeEach(async () => {
    t = await TestApp.start({ rateRead: 5, rateWrite: 1_000 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/mcp`;
  });
  afterEach(() => t.close());

  it('charges one read token per JSON-RPC message: a tools/list flood meets the 429', async () => {
    // Given a read budget of 5 per minute, when one client sends 6 tools/list messages
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await rpc('tools/list')).status);
    // Then the first 5 are answered and the 6th is the HTTP 429 with Retry-After
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await fetch(url, {
      method: 'POST',
      headers: HEADERS,
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(/^429 /);
  });

  it('charges a metered tool call once (its route token), not again at the endpoint', async () => {
    // read_room spends its read token; 5 of them fit the budget of 5
    for (let i = 0; i < 5; i++) {
      const reply = await callTool('read_room', { room: 'metered', since: 0 });
      expect([reply.status, reply.result?.isError ?? false]).toEqual([200, false]);
    }
    const sixth = await callTool('read_room', { room: 'metered', since: 0 });
    expect(firstText(sixth)).toMatch(/^429 /);
  });

  it('builds its MCP servers once, not per request', async () => {
    const pool = t.get(McpServerPool);
    const before = pool.built;
    for (let i = 0; i < 4; i++)
      expect((await callTool('say', { room: 'reuse', text: `m${i}` })).status).toBe(200);
    // Sequential exchanges reuse one server (at most one more is built, never one per request)
    expect(pool.built - before).toBeLessThanOrEqual(1);
  });

  it('refuses arguments a tool does not take, naming them, and writes nothing', async () => {
    // A misspelled compare-and-set guard (if_match for if_matches) must not become an overwrite
    await callTool('write_note', { namespace: 'strict', key: 'k', value: 'one' });
    const typo = await callTool('write_note', {
      namespace: 'strict',
      key: 'k',
      value: 'two',
      if_match: 'zero',
    });
    expect(typo.result?.isError).toBe(true);
    expect(firstText(typo)).toMatch(/^unexpected arguments: if_match \(write_note takes only namespace, key/);
    expect((await t.getPath('/kv/strict/k')).body.endsWith('\none\n')).toBe(true);
    const extra = await callTool('whoami', { verbose: true });
    expect(firstText(extra)).toBe('unexpected arguments: verbose (whoami takes no arguments)\n');
    // The published schema says so too
    const listed = JSON.parse((await rpc('tools/list')).text) as {
      result: { tools: Array<{ name: string; inputSchema: { additionalProperties?: unknown } }> };
    };
    for (const tool of listed.result.tools) expect(tool.inputSchema.additionalProperties).toBe(false);
  });

  it('keeps serving after a client hangs up in the middle of a long-poll tool call', async () => {
    const pool = t.get(McpServerPool);
    const aborted = new AbortController();
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name: 'wait_for_message', arguments: { room: 'hangup', since: 0, seconds: 5 } },
    });
    const parked = fetch(url, { method: 'POST', headers: HEADERS, body, signal: aborted.signal }).catch(
      (error: Error) => error.name,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    aborted.abort();
    expect(await parked).toBe('AbortError');
    // The borrowed server went back closed and the next exchanges work
    // The parked wait ends with the connection: its long-poll slot is free again at once
    const slots = t.get(WaitSlots);
    const deadline = Date.now() + 3000;
    while (slots.inUse > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(slots.inUse).toBe(0);
    const said = await callTool('say', { room: 'hangup', text: 'still here' });
    expect([said.status, said.result?.isError ?? false]).toEqual([200, false]);
    expect(pool.built).toBeLessThanOrEqual(3);
  });
});
