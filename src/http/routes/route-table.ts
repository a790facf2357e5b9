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
    operationId: 'readRoom',
    template: '/r/{room}',
    methods: [...READ, 'POST'],
    summary: 'Read the newest messages (since, limit, wait, format); POST appends a message from a JSON body.',
  }),
  route({
    operationId: 'exportRoom',
    template: '/r/{room}/export',
    methods: READ,
    summary: "The room's retained ring as raw JSONL, byte for byte.",
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
];

/** Whether a decoded path is one of the GET routes that write (HEAD is refused there with 405). */
export function isWriteGetPath(path: string): boolean {
  return ROUTES.some((r) => r.writeGet === true && r.pattern.test(path));
}
