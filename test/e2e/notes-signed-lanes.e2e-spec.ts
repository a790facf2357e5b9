import { generateSigningKey } from '../../src/identity/signing-key';
import { lastLine, LOOSE_RATES, setSignedUrl, signedNoteBody } from '../support/notes-kit';
import { Reply, TestApp } from '../support/test-app';

const alice = generateSigningKey();
const head = (reply: Reply, prefix: string): [number, string] => [
  reply.status,
  reply.body.slice(0, prefix.length),
];

describe('notes: the signed lanes check in the contract order (§12)', () => {
  let t: TestApp;
  beforeEach(async () => (t = await TestApp.start(LOOSE_RATES)));
  afterEach(() => t.close());

  it('runs the signed GET lane in the contract order: sweep → nonce/did/sig → verify → gate → conditions → burn → write', async () => {
    const sig = alice.sign(`room-owners|d-o|1|${alice.did}`);
    const url = (
      parts: { did?: string; sig?: string; nonce?: string; value?: string; ns?: string; key?: string },
      query = '',
    ): string =>
      `/kv/${parts.ns ?? 'room-owners'}/${parts.key ?? 'd-o'}/set-signed/${parts.did ?? alice.did}/${parts.sig ?? sig}/` +
      `${parts.nonce ?? '1'}/${parts.value ?? alice.did}${query}`;
    const cases: Array<[string, number, string]> = [
      [url({ value: '%0D', nonce: 'x', did: 'did:web:x' }), 400, '400 empty text:'],
      [url({ nonce: 'x', did: 'did:web:x' }), 400, "400 nonce must be 1-19 digits, got 'x'"],
      [url({ did: 'did:web:x', sig: '!' }), 400, '400 bad did:key: expected did:key:z6Mk...'],
      [url({ sig: `${sig.slice(0, 85)}B` }), 400, '400 bad signature encoding'],
      [url({ nonce: '2' }, '?if_absent=nope'), 403, `403 signature does not verify for ${alice.did}.`],
      [
        setSignedUrl(alice, { ns: 'ns', key: 'k', nonce: '1', value: 'v', query: 'if_absent=nope' }),
        400,
        '400 signed note writes are only for room-owners and room-allow',
      ],
      [
        setSignedUrl(alice, {
          ns: 'room-nonce',
          key: 'd-o',
          nonce: '1',
          value: '1',
          query: 'if_absent=nope',
        }),
        403,
        '403 /kv/room-nonce/d-o is server-written',
      ],
      [
        setSignedUrl(alice, {
          ns: 'room-owners',
          key: 'o',
          nonce: '1',
          value: alice.did,
          query: 'if_absent=nope',
        }),
        403,
        '403 /kv/room-owners/o: only d- rooms',
      ],
      [url({}, '?if_absent=nope'), 400, '400 bad if_absent: expected one of'],
      [url({}, '?if=x'), 409, '409 note room-owners/d-o changed since you read it'],
      [url({}, '?if_absent=1'), 403, '403 nonce 1 was already used'],
      [
        setSignedUrl(alice, { ns: 'room-owners', key: 'd-o', nonce: '2', value: alice.did }),
        200,
        'ok room-owners/d-o 56B ',
      ],
    ];
    for (const [path, status, prefix] of cases)
      expect([path, ...head(await t.getPath(path), prefix)]).toEqual([path, status, prefix]);
    const mismatch = await t.getPath(url({ nonce: '3' }));
    expect(lastLine(mismatch.body)).toBe(`room-owners|d-o|3|${alice.did}`);
  });

  it('runs the signed POST lane in the contract order: types → nonce/did/sig → verify → conditions → gate → burn', async () => {
    const base = signedNoteBody(alice, { ns: 'room-owners', key: 'd-p', nonce: '1', value: alice.did });
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      ['/kv/room-owners/d-p', { ...base, sig: 5, nonce: 5 }, 400, '400 bad sig: must be a string'],
      ['/kv/room-owners/d-p', { ...base, nonce: 1 }, 400, '400 bad nonce: must be a string'],
      [
        '/kv/room-owners/d-p',
        { ...base, nonce: '1x', did: 'did:web:x' },
        400,
        "400 nonce must be 1-19 digits, got '1x'",
      ],
      ['/kv/room-owners/d-p', { ...base, did: 'did:web:x', sig: '!' }, 400, '400 bad did:key'],
      ['/kv/room-owners/d-p', { ...base, sig: 'A'.repeat(86) + '=' }, 400, '400 bad signature encoding'],
      [
        '/kv/room-owners/d-p',
        { ...base, value: 'changed', if_absent: 'nope' },
        403,
        '403 signature does not verify',
      ],
      [
        '/kv/ns/k',
        signedNoteBody(alice, { ns: 'ns', key: 'k', nonce: '1', value: 'v' }, { if_absent: 'nope' }),
        400,
        '400 bad if_absent: expected one of',
      ],
      [
        '/kv/ns/k',
        signedNoteBody(alice, { ns: 'ns', key: 'k', nonce: '1', value: 'v' }),
        400,
        '400 signed note writes are only',
      ],
      [
        '/kv/room-nonce/d-p',
        signedNoteBody(alice, { ns: 'room-nonce', key: 'd-p', nonce: '1', value: '1' }),
        403,
        '403 /kv/room-nonce/d-p is server-written',
      ],
      ['/kv/room-owners/d-p', { ...base, if: 5 }, 400, '400 bad if: must be a string'],
      [
        '/kv/room-owners/d-p',
        { ...base, did: `  ${alice.did} `, sig: ` ${base.sig as string}`, nonce: '1 ' },
        200,
        'ok room-owners/d-p 56B ',
      ],
      ['/kv/room-owners/d-p', base, 403, '403 nonce 1 was already used'],
    ];
    for (const [path, body, status, prefix] of cases) {
      expect([path, body, ...head(await t.post(path, body), prefix)]).toEqual([path, body, status, prefix]);
    }
  });
});
