import { BadRequestError } from '../../common/errors/bad-request.error';
import { pyRepr } from '../../common/py-compat/py-repr';

/**
 * An idempotency key (issue 28; the IETF Idempotency-Key header draft): 16-128 characters from the
 * URL-unreserved set plus `:`. The floor is deliberate: on the unsigned lanes a key is scoped to the
 * room and the self-asserted nick, so its only protection against a stranger who writes under the same
 * nick is that nobody can guess it; a counter like `1` or `42` would be guessable (docs/decisions.md).
 * A UUID (36) or a ULID (26) fits.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._~:-]{16,128}$/;

/**
 * The key of a write request: the `Idempotency-Key` header (a structured-field string may come
 * quoted) or the `idempotency_key` query parameter (the GET lanes, where a plain GET client cannot set
 * a header). Absent: undefined. Outside the grammar, or two different keys: a 400 naming it.
 */
export function parseIdempotencyKey(
  header: string | string[] | undefined,
  query: string | undefined,
): string | undefined {
  const fromHeader =
    header === undefined ? undefined : unquote(Array.isArray(header) ? header.join(',') : header);
  if (fromHeader !== undefined) assertKey('Idempotency-Key', fromHeader);
  if (query !== undefined) assertKey('idempotency_key', query);
  if (fromHeader !== undefined && query !== undefined && fromHeader !== query) {
    throw new BadRequestError(
      'bad idempotency key: the Idempotency-Key header and the idempotency_key parameter differ; send one of them.',
    );
  }
  return fromHeader ?? query;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1)
    : trimmed;
}

function assertKey(name: string, key: string): void {
  if (IDEMPOTENCY_KEY_PATTERN.test(key)) return;
  throw new BadRequestError(
    `bad ${name}: ${pyRepr(key)} is not an idempotency key. Send 16-128 characters of A-Z a-z 0-9 . _ ~ : - ` +
      '(a random UUID works), new for every new write and the same for every retry of it.',
  );
}
