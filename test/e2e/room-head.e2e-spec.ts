import { createPublicKey, verify } from 'node:crypto';
import { parseDidKey } from '../../src/identity/did-key';
import { json, TestApp } from '../support/test-app';

/** The signed bytes as docs/operations.md documents them, rebuilt here rather than imported. */
function signedBytes(head: Record<string, unknown>): Buffer {
  const fields = ['room', 'generation', 'first_seq', 'last_seq', 'anchor', 'head', 'time', 'service_did'];
  return Buffer.from(['agent-chat room head v1', ...fields.map((f) => String(head[f]))].join('\n') + '\n');
}

function signatureVerifies(head: Record<string, unknown>): boolean {
  const publicKey = createPublicKey({
    key: Buffer.concat([
      Buffer.from('302a300506032b6570032100', 'hex'),
      parseDidKey(head.service_did as string),
    ]),
    format: 'der',
    type: 'spki',
  });
  return verify(null, signedBytes(head), publicKey, Buffer.from(head.signature as string, 'base64url'));
}

describe('GET /r/{room}/head: the signed chain head (issue 29)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await TestApp.start();
  });
  afterEach(() => t.close());

  it('answers 404 like a note read for a room that never existed, 400 for a bad name', async () => {
    const missing = await t.getPath('/r/never/head');
    expect(missing.status).toBe(404);
    expect(missing.body.split('\n')[0]).toMatch(/^404 no room never — /);
    expect((await t.getPath('/r/Bad/head')).status).toBe(400);
  });

  it('signs the room, generation, seqs and the hashes export carries, with the published did:key', async () => {
    for (let i = 1; i <= 5; i++) await t.getPath(`/r/audited/say/n/message%20${i}`);
    const reply = await t.getPath('/r/audited/head');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect((await t.request('HEAD', '/r/audited/head')).status).toBe(200);
    const head = json(reply);
    expect(Object.keys(head)).toEqual([
      'room',
      'generation',
      'first_seq',
      'last_seq',
      'anchor',
      'head',
      'time',
      'service_did',
      'signature',
    ]);
    expect(head).toMatchObject({ room: 'audited', generation: 1, first_seq: 1, last_seq: 5 });
    const exported = await t.getPath('/r/audited/export');
    expect(head.anchor).toBe(exported.headers['x-chain-anchor']);
    expect(head.head).toBe(exported.headers['x-chain-head']);
    expect(signatureVerifies(head)).toBe(true);
    expect(signatureVerifies({ ...head, last_seq: 4 })).toBe(false);

    const agent = json(await t.getPath('/.well-known/agent.json'));
    expect((agent.audit as Record<string, unknown>).service_did).toBe(head.service_did);
    expect((await t.getPath('/llms.txt')).body).toContain(head.service_did as string);
    const openapi = json(await t.getPath('/openapi.json'));
    expect(Object.keys(openapi.paths as object)).toContain('/r/{room}/head');

    await t.restart(); // the same key and, from the checkpoint, the same head
    const again = json(await t.getPath('/r/audited/head'));
    expect([again.service_did, again.anchor, again.head]).toEqual([head.service_did, head.anchor, head.head]);
    expect(signatureVerifies(again)).toBe(true);
  });
});
