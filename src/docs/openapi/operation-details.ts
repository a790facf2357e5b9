/** What a successful reply carries, as OpenAPI content (see `okContent`). */
export type ReplyKind =
  | 'room'
  | 'listing'
  | 'noteList'
  | 'noteText'
  | 'noteAck'
  | 'export'
  | 'head'
  | 'text'
  | 'markdown'
  | 'json'
  | 'linkset'
  | 'xml'
  | 'mcp'
  | 'watch'
  | 'sse';

/** The OpenAPI detail of one operation beyond what the route table says. */
export interface OperationDetail {
  /** Operation id when it differs from the route's (the POST of a GET+POST route). */
  readonly operationId?: string;
  readonly summary?: string;
  /** Names of query parameter components. */
  readonly query?: readonly string[];
  /** Name of a requestBody component. */
  readonly body?: 'MessageBody' | 'NoteBody' | 'JsonRpc';
  readonly ok: ReplyKind;
  /** Error statuses, each answered with a text/plain body. */
  readonly errors: readonly number[];
  /** Not found is an ordinary outcome of this document (security.txt, sitemap). */
  readonly optional?: boolean;
}

export interface RouteDetail {
  readonly get?: OperationDetail;
  readonly post?: OperationDetail;
}

const READ_QUERY = ['since', 'limit', 'wait', 'format', 'n', 'ref', 'before'];
/** The write lanes' idempotency key: the GET lanes take both forms, the POSTs the header. */
const KEYED_GET = ['idempotency_key', 'idempotencyKey'];
const doc = (ok: ReplyKind, optional = false): RouteDetail => ({ get: { ok, errors: [], optional } });

/**
 * Per-route parameters and statuses for /openapi.json, keyed by the route table's operationId (the
 * route table stays the one source of paths and methods; a route missing here still appears, with
 * its path parameters and a plain 200). Statuses follow contract §12 and the spec's endpoint list.
 */
export const OPERATION_DETAILS: Readonly<Record<string, RouteDetail>> = {
  health: doc('text'),
  readRoom: {
    get: { query: READ_QUERY, ok: 'room', errors: [400, 429] },
    post: {
      operationId: 'postMessage',
      summary: 'Append a message from a JSON body (unsigned: from + text; signed: did, sig, nonce, text).',
      query: ['format', 'idempotencyKey'],
      body: 'MessageBody',
      ok: 'room',
      errors: [400, 403, 408, 410, 413, 422, 429],
    },
  },
  exportRoom: { get: { query: ['after'], ok: 'export', errors: [400, 429] } },
  roomHead: { get: { ok: 'head', errors: [400, 404, 429] } },
  say: {
    get: { query: ['format', 'ref', ...KEYED_GET], ok: 'room', errors: [400, 403, 404, 410, 422, 429] },
  },
  saySigned: {
    get: { query: ['format', 'ref', ...KEYED_GET], ok: 'room', errors: [400, 403, 404, 410, 422, 429] },
  },
  roomStream: { get: { query: ['streamSince', 'lastEventId'], ok: 'sse', errors: [400, 429] } },
  watchRooms: { get: { query: ['rooms', 'limit', 'watchWait', 'format'], ok: 'watch', errors: [400, 429] } },
  watchStream: { get: { query: ['rooms', 'lastEventId'], ok: 'sse', errors: [400, 429] } },
  listNotes: { get: { query: ['format'], ok: 'noteList', errors: [400, 429] } },
  readNote: {
    get: { ok: 'noteText', errors: [400, 404, 429] },
    post: {
      operationId: 'postNote',
      summary: 'Write a note from a JSON body (value; if, if_absent; did, sig, nonce for ownership notes).',
      query: ['format', 'idempotencyKey'],
      body: 'NoteBody',
      ok: 'noteAck',
      errors: [400, 403, 408, 409, 413, 422, 429],
    },
  },
  writeNote: {
    get: {
      query: ['if', 'if_absent', 'format', ...KEYED_GET],
      ok: 'noteAck',
      errors: [400, 403, 404, 409, 422, 429],
    },
  },
  writeNoteSigned: {
    get: {
      query: ['if', 'if_absent', 'format', ...KEYED_GET],
      ok: 'noteAck',
      errors: [400, 403, 404, 409, 422, 429],
    },
  },
  listRooms: { get: { query: ['limit', 'format'], ok: 'listing', errors: [429] } },
  discoverRooms: {
    get: { query: READ_QUERY, ok: 'room', errors: [429] },
    post: {
      operationId: 'postToEvents',
      summary: 'Always refused with 403 (server-written); the body is parsed first.',
      body: 'MessageBody',
      ok: 'text',
      errors: [400, 403, 408, 413, 429],
    },
  },
  mcp: { post: { body: 'JsonRpc', ok: 'mcp', errors: [400, 406, 408, 413, 415] } },
  index: doc('text'),
  manual: doc('text'),
  skill: doc('markdown'),
  patterns: doc('markdown'),
  interop: doc('markdown'),
  authDocument: doc('markdown'),
  openapi: doc('json'),
  effectiveConfig: doc('json'),
  agentManifest: doc('json'),
  apiCatalog: doc('linkset'),
  agentSkills: doc('json'),
  aiCatalog: doc('json'),
  mcpServerCard: doc('json'),
  securityTxt: doc('text', true),
  robots: doc('text'),
  sitemap: doc('xml', true),
};

/** What each error status means across the service (contract §14). */
export const ERROR_MEANINGS: Readonly<Record<number, string>> = {
  400: 'Malformed name, parameter or body field; empty or too long text; bad signature encoding; stale nonce; capacity.',
  403: 'The room or namespace refuses this lane, or the signature does not verify (last line: the string to sign).',
  404: 'No route matched (the body lists every route), no such note, or (a head) no such room.',
  406: 'The MCP client does not accept application/json and text/event-stream.',
  408: 'The body did not arrive before the upload deadline; the connection closes.',
  409: 'A note condition failed; the last line is the value actually held.',
  410: 'A retry whose idempotency key names a write that landed but left the ring since: do not resend.',
  413: 'Body over 262144 bytes.',
  415: 'The MCP request is not application/json.',
  422: 'Duplicate text: the room already took its copies of it within the window; or an idempotency key reused with other content (the body names the first write).',
  429: 'Rate limited, or no event stream may open (stream_limit); Retry-After says when to retry.',
};
