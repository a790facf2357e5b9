import { listItems } from './list-items';

/**
 * The shapes of the knobs that hold addresses. Each was accepted unchecked and failed later, far from
 * its cause (issue 25): a relative CHAT_PUBLIC_URL printed broken links in every document, an origin
 * with a path or a capital letter never matched a browser's Origin header, and an http:// NATS URL
 * failed at the first connect with the client's own words.
 */

function parsed(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** Empty (derive from Host), or `http(s)://host[:port][/path]`: documents append paths to it. */
export function isPublicUrl(text: string): boolean {
  if (text === '') return true;
  const url = parsed(text);
  return (
    url !== null &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.hostname !== '' &&
    url.search === '' &&
    url.hash === '' &&
    !text.includes('?') &&
    !text.includes('#')
  );
}

/**
 * Each item `*` or an origin exactly as a browser sends it in `Origin` (`scheme://host[:port]`, lower
 * case, no path, no trailing slash): the CORS hook compares the strings as they are.
 */
export function isCorsOriginList(text: string): boolean {
  return listItems(text).every((origin) => {
    if (origin === '*') return true;
    const url = parsed(origin);
    return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin;
  });
}

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[^\s/:@[\]]+)(:\d{1,5})?$/;

/** At least one server; each `nats://…`, `tls://…` or a bare `host[:port]` (what the NATS client takes). */
export function isNatsServerList(text: string): boolean {
  const servers = listItems(text);
  return (
    servers.length > 0 &&
    servers.every((server) => {
      if (!server.includes('://')) return HOST_PORT.test(server);
      const url = parsed(server);
      return url !== null && (url.protocol === 'nats:' || url.protocol === 'tls:') && url.hostname !== '';
    })
  );
}
