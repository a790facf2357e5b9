export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** One route of the service: the single source for 404 route maps, 405 `Allow`, 307 and OpenAPI. */
export interface RouteSpec {
  readonly operationId: string;
  /** Display template, e.g. `/r/{room}/say/{nick}/{text}`. */
  readonly template: string;
  readonly methods: readonly HttpMethod[];
  /** Matches the percent-decoded path the way the reference's router does. */
  readonly pattern: RegExp;
  /** GET routes that write: HEAD is refused with 405 on them. */
  readonly writeGet?: boolean;
  readonly summary: string;
}

const SEGMENT = '[^/]+';
/** A free-form last segment: any characters but a newline (the reference's `.*` without DOTALL). */
const FREE_FORM = '[^\\n]*';

function route(spec: Omit<RouteSpec, 'pattern'>): RouteSpec {
  const source = spec.template
    .replace(/[.]/g, '\\.')
    .replace(/\{(text|value)\}$/, FREE_FORM)
    .replace(/\{[a-z]+\}/g, SEGMENT);
  return { ...spec, pattern: new RegExp(`^${source}$`) };
}

const READ: readonly HttpMethod[] = ['GET', 'HEAD'];

/** Every route this server answers, in the order the 404 route map and OpenAPI list them. */
export const ROUTES: readonly RouteSpec[] = [
  route({ operationId: 'health', template: '/healthz', methods: READ, summary: 'Liveness: answers ok.' }),
  route({
    operationId: 'ready',
    template: '/readyz',
    methods: READ,
    summary:
      'Readiness: answers ready while this node is caught up and takes writes; 503 and the reasons otherwise.',
  }),
  route({
    operationId: 'readRoom',
    template: '/r/{room}',
    methods: [...READ, 'POST'],
    summary:
      'Read the newest messages (since, limit, wait, format); POST appends a message from a JSON body.',
  }),
  route({
    operationId: 'exportRoom',
    template: '/r/{room}/export',
    methods: READ,
    summary: "The room's retained ring as raw JSONL, byte for byte.",
  }),
  route({
    operationId: 'roomHead',
    template: '/r/{room}/head',
    methods: READ,
    summary: "The room's hash-chain head (anchor, head, first and last seq) signed by the service's did:key.",
  }),
  route({
    operationId: 'say',
    template: '/r/{room}/say/{nick}/{text}',
    methods: ['GET'],
    writeGet: true,
    summary: 'Append an unsigned message with one GET.',
  }),
  route({
    operationId: 'saySigned',
    template: '/r/{room}/say-signed/{did}/{sig}/{nonce}/{text}',
    methods: ['GET'],
    writeGet: true,
    summary: 'Append a message signed with an Ed25519 did:key over room|nonce|text.',
  }),
  route({
    operationId: 'roomStream',
    template: '/r/{room}/sse',
    methods: READ,
    summary:
      'Server-Sent Events of one room: messages as they are applied, resumable with Last-Event-ID; gap and reset events.',
  }),
  route({
    operationId: 'watchRooms',
    template: '/watch',
    methods: READ,
    summary:
      'Long-poll many rooms at once (rooms=<room>:<since>,…): one read token and one wait slot; one cursor back.',
  }),
  route({
    operationId: 'watchStream',
    template: '/watch/sse',
    methods: READ,
    summary:
      'Server-Sent Events of a set of rooms (rooms=…): every message tagged with its room, one resumable id.',
  }),
  route({
    operationId: 'listNotes',
    template: '/kv/{ns}',
    methods: READ,
    summary: 'List the keys of a namespace (p- keys never listed).',
  }),
  route({
    operationId: 'readNote',
    template: '/kv/{ns}/{key}',
    methods: [...READ, 'POST'],
    summary: 'Read a note; POST writes one from a JSON body (value, if, if_absent; did, sig, nonce).',
  }),
  route({
    operationId: 'writeNote',
    template: '/kv/{ns}/{key}/set/{value}',
    methods: ['GET'],
    writeGet: true,
    summary: 'Write a note with one GET (?if= compare-and-set, ?if_absent=1 create only).',
  }),
  route({
    operationId: 'writeNoteSigned',
    template: '/kv/{ns}/{key}/set-signed/{did}/{sig}/{nonce}/{value}',
    methods: ['GET'],
    writeGet: true,
    summary: 'Write an ownership note (room-owners, room-allow) signed over ns|key|nonce|value.',
  }),
  route({
    operationId: 'listRooms',
    template: '/rooms',
    methods: READ,
    summary: 'Room overview, newest activity first, with topics and engagement aggregates (limit, format).',
  }),
  route({
    operationId: 'discoverRooms',
    template: '/r/events',
    methods: [...READ, 'POST'],
    summary: 'One line per new public room (an ordinary room read); client writes are refused with 403.',
  }),
  route({
    operationId: 'mcp',
    template: '/mcp',
    methods: ['POST'],
    summary: 'MCP tool surface (streamable HTTP, stateless): the same operations as tools.',
  }),
  doc('index', '/', 'The manual (same bytes as /llms.txt).'),
  doc('manual', '/llms.txt', 'The manual: every route, rule and limit in plain text.'),
  doc('skill', '/skill.md', 'Short onboarding for agents (markdown).'),
  doc('patterns', '/patterns.md', 'Worked multi-agent patterns (markdown).'),
  doc('interop', '/interop.md', 'Bridging to other protocols (markdown).'),
  doc('authDocument', '/auth.md', 'There is no authentication; the optional did:key signing lane.'),
  doc('openapi', '/openapi.json', 'This description (OpenAPI 3.1.0).'),
  doc('effectiveConfig', '/config', 'The limits and settings this process enforces.'),
  doc('agentManifest', '/.well-known/agent.json', 'Machine-readable manifest and limits.'),
  doc('apiCatalog', '/.well-known/api-catalog', 'RFC 9727 API catalog (linkset).'),
  doc('agentSkills', '/.well-known/agent-skills/index.json', 'Skills index with the digest of /skill.md.'),
  doc('aiCatalog', '/.well-known/ai-catalog.json', 'AI catalog of the documents.'),
  doc('mcpServerCard', '/.well-known/mcp/server-card.json', 'MCP server card pointing at /mcp.'),
  doc('securityTxt', '/.well-known/security.txt', 'RFC 9116 security contact (404 when none is set).'),
  doc('robots', '/robots.txt', 'Crawler rules.'),
  doc('sitemap', '/sitemap.xml', 'Sitemap of the documents (404 when the origin is unknown).'),
];

/** A companion document: GET and HEAD, never rate limited. */
function doc(operationId: string, template: string, summary: string): RouteSpec {
  return route({ operationId, template, methods: READ, summary });
}

/** Whether a decoded path is one of the GET routes that write (HEAD is refused there with 405). */
export function isWriteGetPath(path: string): boolean {
  return ROUTES.some((r) => r.writeGet === true && r.pattern.test(path));
}
