import { FastifyRequest } from 'fastify';

/** A Host header worth echoing into documents (contract §15.2): a plain hostname and optional port. */
const HOST_PATTERN = /^[a-z0-9]([a-z0-9.-]{0,253}[a-z0-9])?(:[0-9]{1,5})?$/;

/**
 * The base URL documents put in front of their links (contract §15.2): CHAT_PUBLIC_URL without a
 * trailing slash when set; else `<scheme>://<host>` when the Host header is a plain host[:port];
 * else '' and documents use relative links. A spoofed Host can only change the links of the reply
 * it is sent with (and, without CHAT_PUBLIC_URL, documents vary on Host).
 */
export function resolveBaseUrl(publicUrl: string, request: FastifyRequest): string {
  if (publicUrl !== '') return publicUrl.replace(/\/+$/, '');
  const raw = request.headers.host;
  const host = typeof raw === 'string' ? raw.toLowerCase() : '';
  const scheme = request.protocol;
  if (!HOST_PATTERN.test(host) || (scheme !== 'http' && scheme !== 'https')) return '';
  return `${scheme}://${host}`;
}
