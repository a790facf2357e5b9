import fc from 'fast-check';

/** One request the fuzzer sends. `url` is already a request target (what goes on the request line). */
export interface FuzzRequest {
  readonly method: 'GET' | 'POST' | 'HEAD' | 'PUT' | 'DELETE' | 'OPTIONS';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
}

/**
 * Every invisible character class the single-line sweep must handle (contract §5.2), plus the
 * neighbours it must leave alone: C0/C1 controls, DEL, format characters (Cf: zero-width, bidi
 * overrides and isolates, soft hyphen, BOM, Arabic letter mark, Mongolian vowel separator), line and
 * paragraph separators, every space separator, variation selectors, tag characters, Hangul fillers,
 * the braille blank, combining marks, lone surrogates, noncharacters and private use.
 */
const INVISIBLES = [
  ...range(0x00, 0x1f),
  0x7f,
  ...range(0x80, 0x9f),
  0xad,
  0x061c,
  0x180e,
  ...range(0x200b, 0x200f),
  ...range(0x202a, 0x202e),
  ...range(0x2060, 0x2064),
  ...range(0x2066, 0x206f),
  0xfeff,
  0x2028,
  0x2029,
  0xa0,
  0x1680,
  ...range(0x2000, 0x200a),
  0x202f,
  0x205f,
  0x3000,
  ...range(0xfe00, 0xfe0f),
  0xe0001,
  ...range(0xe0020, 0xe007f),
  0x3164,
  0xffa0,
  0x115f,
  0x1160,
  0x2800,
  0x0300,
  0x034f,
  0xd800,
  0xdfff,
  0xfffe,
  0xffff,
  0xfdd0,
  0xe000,
  0x1f600,
];

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

const invisible = fc.constantFrom(...INVISIBLES).map((cp) => String.fromCodePoint(cp));

/** Free text: printable ASCII, non-Latin letters, emoji and invisible characters mixed. */
export const freeText = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 12 }) },
      { weight: 2, arbitrary: invisible },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      { weight: 1, arbitrary: fc.constantFrom('😀', 'é', 'ß', '中文', 'עברית', '\\', '"', '%', '/', '..') },
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const NAME_FIRST = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
const NAME_REST = [...NAME_FIRST, '_', '-'];

/** A valid name of 1..1+maxRest characters (built by hand: fc.stringMatching is slow per sample). */
function validName(maxRest: number, first = NAME_FIRST, rest = NAME_REST): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...first), fc.string({ unit: fc.constantFrom(...rest), maxLength: maxRest }))
    .map(([a, b]) => a + b);
}

/** Names: valid ones, the 48-character edge and past it, and the usual mistakes. */
export const nameLike = fc.oneof(
  { weight: 5, arbitrary: validName(10) },
  { weight: 1, arbitrary: fc.constantFrom('p-', 'mb-', 'd-', 'e-', 'mb-p-', 'e-p-').chain(prefixed) },
  { weight: 1, arbitrary: fc.integer({ min: 46, max: 60 }).map((n) => 'a'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('events', 'lobby', 'room-owners', 'room-allow', 'room-nonce', 'topic'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom('..', '.', 'A', 'a b', 'a/b', 'a.b', '', '-a', '_', 'a\nb', 'ａ', 'a%2Fb'),
  },
  { weight: 1, arbitrary: freeText },
);

function prefixed(prefix: string): fc.Arbitrary<string> {
  return validName(8).map((rest) => prefix + rest);
}

/** Bytes as a path or query component: mostly percent-encoded UTF-8, sometimes hostile raw escapes. */
const HOSTILE_ESCAPES = [
  '%2F',
  '%2f',
  '%0A',
  '%0D',
  '%00',
  '%2E%2E',
  '..',
  '%C0%AF',
  '%E0%80%AF',
  '%ED%A0%80',
  '%FF',
  '%',
  '%G1',
  '%25',
  '+',
  '%20',
  '?',
  '#',
  ';',
  '%3F',
];

export const component = (text: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: text.map(encodeLoosely) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(text.map(encodeLoosely), fc.constantFrom(...HOSTILE_ESCAPES), text.map(encodeLoosely))
        .map(([a, b, c]) => a + b + c),
    },
  );

/** encodeURIComponent that survives lone surrogates (encodes them as the raw WTF-8 bytes). */
function encodeLoosely(text: string): string {
  let out = '';
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff)
      out += [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)].map(hex).join('');
    else out += encodeURIComponent(char);
  }
  return out;
}

const hex = (byte: number): string => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** Integers as text: small, negative, 19 and 20 digits, huge, non-integral, exotic forms. */
export const numberText = fc.oneof(
  fc.integer({ min: -5, max: 300 }).map(String),
  fc.bigInt({ min: 10n ** 18n, max: 10n ** 20n - 1n }).map(String),
  fc.constantFrom(
    '9223372036854775807',
    '9223372036854775808',
    '18446744073709551616',
    '99999999999999999999',
    '1e309',
    '1.5',
    '-0',
    '0x10',
    '1_000',
    ' 7',
    '０７',
    'NaN',
    'Infinity',
    '',
    '00000000000000000001',
    '9007199254740993',
  ),
);

const QUERY_KEYS = [
  'since',
  'limit',
  'wait',
  'format',
  'if',
  'if_absent',
  'before',
  'nonce',
  'q',
  'x',
  'since',
  'format',
];

export const query = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 4 })),
      fc.oneof(numberText, fc.constantFrom('json', 'text', 'md', 'JSON', '1', 'true'), freeText),
    ),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.length === 0
      ? ''
      : `?${pairs.map(([k, v]) => `${encodeLoosely(k)}=${encodeLoosely(v)}`).join('&')}`,
  );

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const SIG = 'A'.repeat(86);

/** Paths over every route family, with fuzzed segments. */
export const path = fc.oneof(
  nameSeg().map((room) => `/r/${room}`),
  fc.tuple(nameSeg(), nameSeg(), textSeg()).map(([r, n, t]) => `/r/${r}/say/${n}/${t}`),
  fc
    .tuple(
      nameSeg(),
      fc.oneof(fc.constant(DID), textSeg()),
      fc.oneof(fc.constant(SIG), textSeg()),
      component(numberText),
      textSeg(),
    )
    .map(([r, d, s, n, t]) => `/r/${r}/say-signed/${d}/${s}/${n}/${t}`),
  nameSeg().map((room) => `/r/${room}/export`),
  fc.tuple(nameSeg(), nameSeg()).map(([ns, key]) => `/kv/${ns}/${key}`),
  fc.tuple(nameSeg(), nameSeg(), textSeg()).map(([ns, key, v]) => `/kv/${ns}/${key}/set/${v}`),
  nameSeg().map((ns) => `/kv/${ns}`),
  fc.constantFrom(
    '/',
    '/rooms',
    '/llms.txt',
    '/config',
    '/openapi.json',
    '/healthz',
    '/mcp',
    '/skill.md',
    '/.well-known/agent.json',
    '/robots.txt',
    '/r',
    '/kv',
    '/r/',
    '//r//x',
    '/../../etc/passwd',
    '/r/..%2F..%2Fetc',
    '/kv/..%2F../x',
  ),
  fc.array(textSeg(), { minLength: 1, maxLength: 6 }).map((segments) => `/${segments.join('/')}`),
);

function nameSeg(): fc.Arbitrary<string> {
  return component(nameLike);
}

function textSeg(): fc.Arbitrary<string> {
  return component(freeText);
}

/** Header values Node's parser accepts on the wire: tab, visible ASCII, space and obs-text bytes. */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
      .map((c) => String.fromCharCode(c)),
    maxLength: 8,
  }),
  fc.constantFrom(
    'application/json',
    'text/plain',
    'application/json; charset=latin1',
    'multipart/form-data',
    'br, gzip',
    'gzip;q=0',
    '*/*',
    'text/markdown',
    '100-continue',
  ),
);

export const headers = fc
  .record(
    {
      'content-type': fc.oneof(
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
        headerValue,
      ),
      accept: headerValue,
      'accept-encoding': headerValue,
      host: fc.oneof(fc.constantFrom('localhost', 'chat.example:8080', '[::1]:80', 'a..b', ''), headerValue),
      'x-forwarded-for': fc.oneof(
        fc.constantFrom('2001:db8::1', '::ffff:1.2.3.4', '1.2.3.4, 5.6.7.8'),
        headerValue,
      ),
      origin: headerValue,
      'if-none-match': headerValue,
      'mcp-protocol-version': headerValue,
    },
    { requiredKeys: [] },
  )
  .chain((known) =>
    fc
      .dictionary(
        validName(11).map((name) => `x-${name}`),
        headerValue,
        { maxKeys: 3 },
      )
      .map((extra) => ({ ...known, ...extra }) as Record<string, string>),
  );

/** JSON values with hostile numbers, strings, deep nesting and the fields the routes read. */
const jsonScalar = fc.oneof(
  freeText,
  numberText,
  fc.double(),
  fc.constantFrom(true, false, null, 0, -0, 1e308, 9007199254740992, 0.1),
);

const fieldValue = fc.oneof(
  { weight: 4, arbitrary: jsonScalar },
  { weight: 1, arbitrary: fc.array(jsonScalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 4 }), jsonScalar, { maxKeys: 3 }) },
);

const FIELDS = [
  'from',
  'text',
  'value',
  'did',
  'sig',
  'nonce',
  'if',
  'if_absent',
  'jsonrpc',
  'method',
  'params',
  'id',
];

/** A JSON body as text (serialised by hand so it can hold duplicate keys and raw number forms). */
const jsonObjectText = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 5 })), fieldValue), {
    maxLength: 6,
  })
  .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${rawJson(v)}`).join(',')}}`);

function rawJson(value: unknown): string {
  // Number-looking strings are sometimes emitted bare, so 20-digit and 1e309 literals reach the parser.
  if (typeof value === 'string' && /^-?[0-9]+(\.[0-9]+)?(e[0-9]+)?$/.test(value) && value.length % 2 === 0)
    return value;
  return JSON.stringify(value) ?? 'null';
}

const hostileBodies = fc.oneof(
  fc.integer({ min: 1, max: 20_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
  fc.constantFrom(
    '{"text":"a","text":"b","from":"x"}',
    '{"value":"\\ud800"}',
    '{"text":"\\u00"}',
    '{"text":"\\uDBFF\\uDFFF","from":"a"}',
    '{"nonce":12345678901234567890,"did":"x","sig":"y","text":"t"}',
    '{"nonce":1234567890123456789,"text":"t"}',
    '{"value":1e400}',
    '{"__proto__":{"polluted":1},"text":"x","from":"a"}',
    '{"constructor":{"prototype":{"x":1}}}',
    '',
    'null',
    '[]',
    '"text"',
    '{',
  ),
);

export const body: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 5, arbitrary: jsonObjectText.map((text) => Buffer.from(text, 'utf8')) },
  { weight: 2, arbitrary: hostileBodies.map((text) => Buffer.from(text, 'utf8')) },
  {
    weight: 1,
    // Invalid UTF-8 inside a JSON string: overlong slash, lone continuation, surrogate half, 0xFF.
    arbitrary: fc
      .constantFrom(
        [0xc0, 0xaf],
        [0x80],
        [0xed, 0xa0, 0x80],
        [0xff],
        [0xf4, 0x90, 0x80, 0x80],
        [0xe0, 0x80, 0xaf],
      )
      .map((bytes) =>
        Buffer.concat([
          Buffer.from('{"from":"a","text":"x'),
          Buffer.from(bytes),
          Buffer.from('y","value":"v"}'),
        ]),
      ),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
);

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    method: fc.constantFrom(
      'GET',
      'GET',
      'GET',
      'GET',
      'POST',
      'POST',
      'POST',
      'POST',
      'HEAD',
      'PUT',
      'DELETE',
      'OPTIONS',
    ),
    url: fc.tuple(path, query).map(([p, q]) => p + q),
    headers,
    body,
  })
  .map((r) => (r.method === 'POST' || r.method === 'PUT' ? r : { ...r, body: undefined }));
