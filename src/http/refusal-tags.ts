import { IncomingMessage } from 'node:http';

/**
 * The kind of a refusal, noted by the error filter (which knows the error) for the metrics hook
 * (which sees only the status). Keyed by the raw request, so nothing is added to Fastify's objects.
 */
const kinds = new WeakMap<IncomingMessage, string>();

export function noteRefusal(request: IncomingMessage, kind: string): void {
  kinds.set(request, kind);
}

export function refusalKind(request: IncomingMessage, status: number): string {
  return kinds.get(request) ?? `http_${status}`;
}
