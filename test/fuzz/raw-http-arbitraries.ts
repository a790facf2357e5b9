import fc from 'fast-check';

/** One hostile request as bytes: what a fuzzed client writes before half-closing its side. */
export interface RawCase {
  readonly bytes: Buffer;
  /** The methods of the requests in it, in order (a reply to HEAD has no body). */
  readonly methods: readonly string[];
}

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

const CLOSING_REQUEST = 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';

/** Bytes that are not tokens, not text, or not allowed where they are put. */
const hostileChar = fc.constantFrom(
  '\x00',
  '\x01',
  '\x7f',
  '\x80',
  '\xff',
  ' ',
  '\t',
  '"',
  '(',
  '{',
  '\r',
  '\n',
  ':',
);

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'PUT',
      'DELETE',
      'OPTIONS',
      'PATCH',
      'PROPFIND',
      'SEARCH',
      'QUERY',
      'TRACE',
      'CONNECT',
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom('get', 'Get', 'FOO', 'G ET', '', 'GET\x00', 'ÄÖÜ', '-', '123') },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) },
);

const path = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '/',
      '/healthz',
      '/r/lobby',
      '/r/x/say/a/hi',
      '/kv/ns/key',
      '/rooms?format=json',
      '/llms.txt',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '*',
      'http://h/healthz',
      'healthz',
      '//',
      '/r/%zz',
      '/r/%',
      '/%00',
      '/r/a b',
      '/\x01',
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom('r', 'kv', 'a', '%2F', '..', '%E0') },
          { weight: 1, arbitrary: hostileChar },
        ),
        {
          maxLength: 6,
        },
      )
      .map((parts) => `/${parts.join('/')}`),
  },
  { weight: 1, arbitrary: fc.integer({ min: 8000, max: 20_000 }).map((n) => `/r/x/say/a/${'a'.repeat(n)}`) },
);

const version = fc.oneof(
  { weight: 12, arbitrary: fc.constant('HTTP/1.1') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1', 'http/1.1', 'HTTP/1.1 x', ''),
  },
);

const header = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('Host: x', 'Accept: */*', 'Accept-Encoding: gzip', 'Connection: keep-alive'),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'Content-Length: abc',
      'Content-Length: -1',
      'Content-Length: 1, 2',
      'Content-Length: 99999999999999999999',
      'Transfer-Encoding: gzip',
      'Transfer-Encoding: chunked, gzip',
      'Transfer-Encoding: identity',
      'Expect: 100-continue',
      'Expect: something-else',
      'Content-Type: \xe6\xb5\t\xfe',
      'Content-Type: application/json',
      'Upgrade: websocket',
      'Host: a',
      ' folded: continuation',
      'No colon here',
      'Bad Name: x',
      ': empty name',
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.stringMatching(/^[A-Za-z-]{1,12}$/), fc.string({ maxLength: 20 }), hostileChar)
      .map(([n, v, c]) => `${n}: ${v}${c}`),
  },
  { weight: 1, arbitrary: fc.integer({ min: 9000, max: 20_000 }).map((n) => `X-Big: ${'b'.repeat(n)}`) },
);

/** A body and the framing headers that say how long it is (Content-Length, chunked, or both). */
const body = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ headers: [] as string[], bytes: '' }) },
  {
    weight: 3,
    arbitrary: fc.string({ maxLength: 40 }).map((text) => ({
      headers: [`Content-Length: ${Buffer.byteLength(text, 'latin1')}`],
      bytes: text,
    })),
  },
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.oneof(
          fc.constantFrom(
            '5\r\nhello\r\n',
            'zz\r\nab\r\n',
            '3;ext=1\r\nabc\r\n',
            '2\r\nabc\r\n',
            '\r\n',
            'ffffffffffffffffff\r\n',
          ),
        ),
        {
          maxLength: 3,
        },
      )
      .map((chunks) => ({ headers: ['Transfer-Encoding: chunked'], bytes: `${chunks.join('')}0\r\n\r\n` })),
  },
  {
    weight: 1,
    arbitrary: fc.constant({
      headers: ['Content-Length: 3', 'Transfer-Encoding: chunked'],
      bytes: '0\r\n\r\n',
    }),
  },
);

/**
 * Hostile HTTP/1.1 request heads and framings for the raw-socket fuzzer (issue 24 item 8): methods
 * HTTP does not define or in the wrong case, targets that are no path (`*`, absolute, bare words,
 * controls, 20 KB), bad versions, header lines with no colon, bad names, control bytes, obs-fold, bad
 * and conflicting Content-Length and Transfer-Encoding, Expect, 20 KB headers, bare LF line endings,
 * malformed chunked bodies — each followed by a well-formed request that closes the connection.
 */
export const rawCase: fc.Arbitrary<RawCase> = fc
  .record({
    method,
    path,
    version,
    headers: fc.array(header, { maxLength: 4 }),
    body,
    host: fc.constantFrom(true, true, true, true, true, false),
    lineEnd: fc.constantFrom('\r\n', '\r\n', '\r\n', '\r\n', '\r\n', '\n'),
  })
  .map(({ method: m, path: p, version: v, host, headers, body: b, lineEnd }) => {
    const requestLine = v === '' ? `${m} ${p}` : `${m} ${p} ${v}`;
    const head =
      [requestLine, ...(host ? ['Host: x'] : []), ...headers, ...b.headers].join(lineEnd) + lineEnd + lineEnd;
    const one = head + b.bytes;
    // A well-formed request behind it that closes the connection once answered: every case ends with
    // the server closing (after a refusal, after this reply, or at a timer for an incomplete request),
    // and a refusal must never be followed by a half-parsed request.
    return { bytes: latin1(`${one}${CLOSING_REQUEST}`), methods: [m, 'GET'] };
  });
