import { verify, createPublicKey } from 'node:crypto';
import { parseDidKey } from '../../src/identity/did-key';
import { generateSigningKey, SigningKey } from '../../src/identity/signing-key';
import { json, TestApp } from '../support/test-app';

const enc = encodeURIComponent;

function saySignedUrl(key: SigningKey, room: string, nonce: string, text: string, sig?: string): string {
  const signature = sig ?? key.sign(`${room}|${nonce}|${text}`);
  return `/r/${room}/say-signed/${key.did}/${signature}/${nonce}/${enc(text)}?format=json`;
}

/** Re-verifies a stored record from its exported line alone (contract §6.2). */
function reverifies(line: string): boolean {
  const record = JSON.parse(line.replace(/"nonce":(\d+)/, '"nonce":"$1"')) as Record<string, string>;
  const room = 'vault';
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(parseDidKey(record.from)).toString('base64url') },
    format: 'jwk',
  });
  const payload = Buffer.from(`${room}|${record.nonce}|${record.text}`, 'utf8');
  return verify(null, payload, key, Buffer.from(record.sig, 'base64url'));
}

describe('signed lane: did:key, Ed25519, nonces, mailboxes', () => {
  let t: TestApp;
  const key = generateSigningKey();
  beforeEach(async () => (t = await TestApp.start()));
  afterEach(() => t.close());

  it('accepts a signed GET write and stores from = did, nonce as an integer, and sig', async () => {
    const reply = await t.getPath(saySignedUrl(key, 'vault', '7', 'hello signed'));
    expect(reply.status).toBe(200);
    const posted = json(reply).posted as Record<string, unknown>;
    expect(Object.keys(posted)).toEqual(['seq', 'ts', 'from', 'text', 'nonce', 'sig']);
    expect(posted).toMatchObject({ from: key.did, text: 'hello signed', nonce: 7 });
    const text = (await t.getPath('/r/vault')).body;
    const abbreviated = `${key.did.slice(8, 12)}…${key.did.slice(-4)}`;
    expect(text).toContain(`<${abbreviated}> hello signed`);
  });

  it('keeps 19-digit nonces exact end to end and re-verifies a record from its exported line', async () => {
    const nonce = '9223372036854775807';
    const reply = await t.getPath(saySignedUrl(key, 'vault', nonce, 'big nonce ☃'));
    expect(reply.body).toContain(`"nonce":${nonce},`);
    const exported = (await t.getPath('/r/vault/export')).body.trimEnd();
    expect(exported).toContain(`"nonce":${nonce},`);
    expect(reverifies(exported)).toBe(true);
    expect((await t.getPath('/r/vault?format=json')).body).toContain(`"nonce":${nonce},`);
  });

  it('signs the swept text, and accepts long non-Latin text through POST', async () => {
    const text = '日本語のテキスト'.repeat(500); // 4000 code points, far past what a URL carries
    const body = { did: key.did, sig: key.sign(`vault|1|${text}`), nonce: '1', text, from: 'ignored' };
    const reply = await t.post('/r/vault?format=json', body);
    expect(reply.status).toBe(200);
    expect(json(reply).posted).toMatchObject({ from: key.did, text, nonce: 1 });
    const raw = await t.post('/r/vault', {
      did: key.did,
      sig: key.sign('vault|2|\ta\nb'),
      nonce: '2',
      text: '\ta\nb',
    });
    expect(raw.status).toBe(403); // a signature over the unswept text does not cover what is stored
    expect(raw.body.trimEnd().split('\n').pop()).toBe('vault|2|a b');
    const ok = await t.post('/r/vault', {
      did: key.did,
      sig: key.sign('vault|3|a b'),
      nonce: '3',
      text: '\ta\nb\u200b',
    });
    expect(ok.status).toBe(200);
  });

  it('refuses in the contract order: text → nonce → did → sig encoding → verify → gate → stale nonce', async () => {
    const sig = key.sign('vault|5|hi');
    const cases: Array<[string, number, string]> = [
      [`/r/vault/say-signed/${key.did}/${sig}/5x/%0D`, 400, '400 empty text:'],
      [`/r/vault/say-signed/${key.did}/${sig}/5x/hi`, 400, "400 nonce must be 1-19 digits, got '5x'"],
      [`/r/vault/say-signed/${key.did}/${sig}/${'1'.repeat(20)}/hi`, 400, '400 nonce must be 1-19 digits'],
      [`/r/vault/say-signed/did:web:x/${sig}/5/hi`, 400, '400 bad did:key: expected did:key:z6Mk...'],
      [`/r/vault/say-signed/${key.did}/${sig.slice(0, 85)}B/5/hi`, 400, '400 bad signature encoding'],
      [`/r/vault/say-signed/${key.did}/${sig}=/5/hi`, 400, '400 bad signature encoding'],
      [`/r/vault/say-signed/${key.did}/${sig}/5/bye`, 403, `403 signature does not verify for ${key.did}.`],
      [
        `/r/events/say-signed/${key.did}/${key.sign('events|5|hi')}/5/hi`,
        403,
        '403 /r/events is server-written',
      ],
      [`/r/Vault/say-signed/${key.did}/${key.sign('Vault|5|hi')}/5/hi`, 400, "400 bad name 'Vault'"],
    ];
    for (const [url, status, prefix] of cases) {
      const reply = await t.getPath(url);
      expect([reply.status, reply.body.slice(0, prefix.length)]).toEqual([status, prefix]);
    }
    const mismatch = await t.getPath(`/r/vault/say-signed/${key.did}/${sig}/5/bye`);
    expect(mismatch.body.trimEnd().split('\n').pop()).toBe('vault|5|bye');
  });

  it('requires a strictly greater nonce per key and room, checked after the gate', async () => {
    expect((await t.getPath(saySignedUrl(key, 'vault', '10', 'first'))).status).toBe(200);
    for (const nonce of ['10', '9', '010']) {
      const stale = await t.getPath(saySignedUrl(key, 'vault', nonce, `again ${nonce}`));
      expect([stale.status, stale.body.startsWith('400 nonce 10 is not greater than 10')]).toEqual([
        400,
        nonce !== '9',
      ]);
    }
    expect((await t.getPath(saySignedUrl(key, 'vault', '011', 'leading zero'))).status).toBe(200);
    expect((await t.getPath(saySignedUrl(key, 'other', '0', 'another room'))).status).toBe(200);
    const other = generateSigningKey();
    expect((await t.getPath(saySignedUrl(other, 'vault', '1', 'another key'))).status).toBe(200);
    const stale = await t.getPath(saySignedUrl(key, 'events', '1', 'x'));
    expect(stale.status).toBe(403); // the gate comes before the stale-nonce check
    expect(
      (await t.post('/r/vault', { did: key.did, sig: key.sign('vault|5|x'), nonce: 5, text: 'x' })).body,
    ).toBe('400 bad nonce: must be a string\n');
    expect((await t.post('/r/vault', { did: key.did, sig: 5, nonce: '5', text: 'x' })).body).toBe(
      '400 bad sig: must be a string\n',
    );
  });

  it('lets any valid key write to an mb- mailbox and names the signed lane for unsigned writers', async () => {
    expect((await t.getPath(saySignedUrl(key, 'mb-inbox', '1', 'for you'))).status).toBe(200);
    const unsigned = await t.post('/r/mb-inbox', { from: 'anon', text: 'hi' });
    expect(unsigned.status).toBe(403);
    expect(unsigned.body).toContain('say-signed');
    expect((await t.post('/r/mb-inbox', { did: ' ', from: 'anon', text: 'hi' })).status).toBe(403); // blank did = unsigned
  });

  it('survives a restart with the nonce index intact', async () => {
    expect((await t.getPath(saySignedUrl(key, 'vault', '50', 'before'))).status).toBe(200);
    await t.restart();
    expect((await t.getPath(saySignedUrl(key, 'vault', '50', 'replayed'))).status).toBe(400);
    expect((await t.getPath(saySignedUrl(key, 'vault', '51', 'after'))).status).toBe(200);
  });
});
