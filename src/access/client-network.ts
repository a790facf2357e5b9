import { isIPv4 } from 'node:net';

/**
 * The network a client key belongs to, for the rooms' newcomers' reserve: an IPv4 address's /24, an
 * IPv6 client's /48 (its key is already the /64, src/http/client-prefix.ts), anything else (a trusted
 * header's odd value) itself. Per-address shares let one holder of many addresses take one reserved
 * room per address; the reserve counts networks instead, the unit addresses are rented and assigned
 * in, so filling it takes as many networks as it has rooms.
 */
export function clientNetwork(client: string): string {
  if (isIPv4(client)) return `${client.slice(0, client.lastIndexOf('.'))}.0/24`;
  const slash64 = /^([0-9a-f]{1,4}):([0-9a-f]{1,4}):([0-9a-f]{1,4}):[0-9a-f]{1,4}::\/64$/.exec(client);
  return slash64 === null ? client : `${slash64[1]}:${slash64[2]}:${slash64[3]}::/48`;
}
