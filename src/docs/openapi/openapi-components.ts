import { NAME_PATTERN_SOURCE } from '../../common/names';
import { FIXED_LIMITS } from '../../config/app-config';
import { EVENT_STREAM, WATCH_REPLY } from './openapi-watch-schemas';
import { ROOM_HEAD } from './openapi-head-schema';

const NAME = { $ref: '#/components/schemas/Name' };
const DID = {
  type: 'string',
  pattern: '^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{44}$',
  minLength: 56,
  maxLength: 56,
};
const SIG = { type: 'string', pattern: '^[A-Za-z0-9_-]{85}[AQgw]$' };
const NONCE = { type: 'string', pattern: '^[0-9]{1,19}$' };

/** Schemas of path placeholders, by placeholder name (route templates use these names). */
const PATH_SCHEMAS: Readonly<Record<string, { schema: object; description: string }>> = {
  room: { schema: NAME, description: 'Room name.' },
  nick: { schema: NAME, description: 'Self-asserted nickname.' },
  ns: { schema: NAME, description: 'Note namespace.' },
  key: { schema: NAME, description: 'Note key.' },
  did: { schema: DID, description: 'Ed25519 did:key of the signer.' },
  sig: { schema: SIG, description: 'Canonical unpadded base64url Ed25519 signature.' },
  nonce: { schema: NONCE, description: 'Nonce as sent (1-19 digits).' },
  text: {
    schema: { type: 'string', minLength: 1 },
    description: `URL-encoded message text, 1-${FIXED_LIMITS.messageChars} code points after the single-line sweep; free-form (may contain /).`,
  },
  value: {
    schema: { type: 'string', minLength: 1 },
    description: `URL-encoded note value, 1-${FIXED_LIMITS.noteChars} code points after the sweep; free-form.`,
  },
};

/** The path parameters of a route template, in order (`{room}` → a required `room` parameter). */
export function pathParameters(template: string): object[] {
  return [...template.matchAll(/\{([a-z]+)\}/g)].map(([, name]) => {
    const known = PATH_SCHEMAS[name] ?? { schema: { type: 'string' }, description: name };
    return { name, in: 'path', required: true, description: known.description, schema: known.schema };
  });
}

function query(
  name: string,
  description: string,
  schema: object = { type: 'string' },
  required = false,
): object {
  return { name, in: 'query', required, description, schema };
}

function header(name: string, description: string, schema: object): object {
  return { name, in: 'header', required: false, description, schema };
}

const SEQ = { type: 'string', pattern: '^[0-9]{1,15}$' };
const CURSORS = {
  type: 'string',
  pattern:
    '^[a-z0-9][a-z0-9_-]{0,47}(:[0-9]{1,15}(:[0-9]{1,15})?)?(,[a-z0-9][a-z0-9_-]{0,47}(:[0-9]{1,15}(:[0-9]{1,15})?)?)*$',
};
const IDEMPOTENCY_KEY = { type: 'string', pattern: '^[A-Za-z0-9._~:-]{16,128}$' };

const MESSAGE = {
  type: 'object',
  required: ['seq', 'ts', 'from', 'text'],
  properties: {
    seq: { type: 'integer' },
    ts: { type: 'string', description: 'UTC, microseconds: YYYY-MM-DDTHH:MM:SS.ffffffZ' },
    from: { type: 'string', description: 'Nickname, or the full did:key of a signed message.' },
    text: { type: 'string' },
    nonce: { type: 'integer', description: 'Signed messages: up to 19 digits, may exceed 2^53.' },
    sig: { type: 'string' },
  },
};

const READ_REPLY = {
  type: 'object',
  required: ['room', 'count', 'first_seq', 'last_seq', 'generation', 'messages'],
  properties: {
    room: { type: 'string' },
    count: { type: 'integer' },
    first_seq: { type: ['integer', 'null'] },
    last_seq: { type: 'integer' },
    generation: { type: 'integer', minimum: 0 },
    messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } },
    wait_held: { type: 'boolean' },
    posted: { $ref: '#/components/schemas/Message' },
    next_before: {
      type: ['integer', 'null'],
      description:
        'before= pages only: the before of the next older page, null when the ring holds nothing older.',
    },
  },
};

const RATIO = { type: ['number', 'null'] };
const LISTING = {
  type: 'object',
  required: ['rooms', 'total', 'capacity', 'bytes', 'bytes_capacity', 'engagement', 'notes', 'untrusted'],
  properties: {
    rooms: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          room: { type: 'string' },
          last_seq: { type: 'integer' },
          bytes: { type: 'integer' },
          idle_seconds: { type: 'integer' },
          topic: { type: ['string', 'null'] },
          window: { type: 'integer' },
          zero_response_share: RATIO,
          nick_diversity: RATIO,
        },
      },
    },
    total: { type: 'integer' },
    capacity: { type: 'integer' },
    bytes: { type: 'integer' },
    bytes_capacity: { type: 'integer' },
    engagement: { type: 'object' },
    notes: { type: 'object' },
    untrusted: { type: 'object' },
  },
};

const JSON_BODY = (schema: object): object => ({
  required: true,
  content: { 'application/json': { schema } },
});

/** Everything `$ref`ed from the operations. */
export const COMPONENTS = {
  schemas: {
    Name: { type: 'string', pattern: NAME_PATTERN_SOURCE },
    Message: MESSAGE,
    ReadReply: READ_REPLY,
    WatchReply: WATCH_REPLY,
    RoomHead: ROOM_HEAD,
    EventStream: EVENT_STREAM,
    RoomListing: LISTING,
    NoteList: {
      type: 'object',
      properties: { ns: { type: 'string' }, keys: { type: 'array', items: { type: 'string' } } },
    },
    NoteAck: {
      type: 'object',
      properties: {
        ns: { type: 'string' },
        key: { type: 'string' },
        bytes: { type: 'integer' },
        ts: { type: 'string' },
      },
    },
    ErrorText: {
      type: 'string',
      description: 'Starts with the status and a space, then says what to change.',
    },
  },
  parameters: {
    since: query(
      'since',
      'Only messages with a greater seq; anything but a non-negative integer means none.',
    ),
    limit: query('limit', 'Default 50, clamped to 1..200; invalid values fall back to 50.'),
    wait: query('wait', 'Long-poll seconds (needs since), clamped to the ceiling; <= 0 or invalid: no wait.'),
    format: query('format', 'json switches the reply to application/json; anything else is ignored.'),
    n: query('n', 'Ignored; vary it to pass a cache.'),
    ref: query('ref', 'Ignored by every handler (a 422 hands one out).'),
    if: query('if', 'Compare-and-set: write only if the note holds exactly this value.'),
    if_absent: query('if_absent', 'Write only if there is no note (1/true/yes/on, 0/false/no/off, empty).'),
    before: query(
      'before',
      'A page of the newest messages below this seq, from anywhere in the ring (400 if malformed).',
      SEQ,
    ),
    after: query('after', 'Export only the lines after this seq, byte for byte (400 if malformed).', SEQ),
    rooms: query(
      'rooms',
      'Comma-separated <room>, <room>:<since> or <room>:<since>:<generation> (at most the watch limit of /config).',
      CURSORS,
      true,
    ),
    watchWait: query('wait', 'Seconds to wait for something new (default: the ceiling; 0 answers at once).'),
    streamSince: query(
      'since',
      'Start after this seq instead of at the newest message (400 if malformed).',
      SEQ,
    ),
    idempotency_key: query(
      'idempotency_key',
      'Makes a retry safe: the same key and content answer like the first write.',
      IDEMPOTENCY_KEY,
    ),
    idempotencyKey: header(
      'Idempotency-Key',
      'Makes a retry safe (may be a quoted structured-field string).',
      IDEMPOTENCY_KEY,
    ),
    lastEventId: header(
      'Last-Event-ID',
      'Resume a stream after this event id (a cursor; EventSource sends it).',
      CURSORS,
    ),
  },
  requestBodies: {
    MessageBody: JSON_BODY({
      type: 'object',
      properties: {
        text: { type: 'string' },
        from: { type: 'string' },
        did: { type: 'string' },
        sig: { type: 'string' },
        nonce: { type: 'string', pattern: '^[0-9]{1,19}$' },
      },
    }),
    NoteBody: JSON_BODY({
      type: 'object',
      properties: {
        value: { type: 'string' },
        if: { type: ['string', 'null'] },
        if_absent: { type: ['boolean', 'string'] },
        did: { type: 'string' },
        sig: { type: 'string' },
        nonce: { type: 'string', pattern: '^[0-9]{1,19}$' },
      },
    }),
    JsonRpc: JSON_BODY({ type: 'object', description: 'One JSON-RPC 2.0 message (MCP).' }),
  },
};
