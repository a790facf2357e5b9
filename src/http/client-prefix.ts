import { isIPv6 } from 'node:net';

/**
 * The budget key of a client address (issue 18): an IPv4 address is itself; an IPv6 address is its
 * /64, because one subscriber is routinely given a whole /64 and can pick any of its 2^64 addresses
 * per request, which made every per-client budget unlimited. An IPv4-mapped IPv6 address
 * (`::ffff:1.2.3.4`, what a dual-stack listener reports) is the IPv4 address. Anything that is not an
 * IP address (a trusted header's odd value) is used as it is.
 */
export function clientKey(address: string): string {
  if (!address.includes(':')) return address; // IPv4 or a name: the fast path of every request
  const zoneless = address.replace(/%.*$/, '').toLowerCase();
  if (!isIPv6(zoneless)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(zoneless);
  if (mapped !== null) return mapped[1];
  return `${expandedGroups(zoneless).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, each without leading zeros. */
function expandedGroups(address: string): string[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const parse = (part: string | undefined): string[] =>
    part === undefined || part === '' ? [] : part.split(':').flatMap(groupsOf);
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}

/** One textual group, or the two groups an embedded dotted IPv4 tail stands for. */
function groupsOf(part: string): string[] {
  if (!part.includes('.')) return [part];
  const [a, b, c, d] = part.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
