import { readFileSync } from 'node:fs';
import { Server } from 'node:http';
import { Socket } from 'node:net';
import { connectionClient } from './client-identity';

/**
 * Descriptors kept free of connections: the ring files' descriptor cache (1,024), the log segments,
 * checkpoints, stdio and Node's own. A connection cap at the fd limit would leave none for them, and
 * the first EMFILE would land in a checkpoint or a projection instead of in accept().
 */
export const RESERVED_DESCRIPTORS = 1280;
/** The cap when the descriptor limit cannot be read (no /proc). */
const FALLBACK_MAX_CONNECTIONS = 8192;

/** The soft RLIMIT_NOFILE of this process, or null where /proc/self/limits does not exist. */
export function openFileLimit(): number | null {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line === null || line[1] === 'unlimited' ? null : Number(line[1]);
  } catch {
    return null;
  }
}

/** CHAT_MAX_CONNECTIONS, where 0 means "the descriptor limit minus the reserve" (at least 64). */
export function effectiveMaxConnections(configured: number, fdLimit = openFileLimit()): number {
  if (configured > 0) return configured;
  return fdLimit === null ? FALLBACK_MAX_CONNECTIONS : Math.max(64, fdLimit - RESERVED_DESCRIPTORS);
}

export interface ConnectionLimits {
  /** Open connections in total; past it Node closes new ones at accept (server.maxConnections). */
  readonly maxConnections: number;
  /** Open connections one client address may hold; past it a new one is closed at once. */
  readonly maxConnectionsPerClient: number;
}

/**
 * Caps connections (issue 18): one address cannot take every descriptor, and all addresses together
 * stay below the descriptor limit. A refused connection is destroyed before any byte is read — the
 * cheapest answer to a flood, and what Node itself does past maxConnections.
 */
export function installConnectionLimits(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const client = connectionClient(socket.remoteAddress);
    const count = open.get(client) ?? 0;
    if (count >= limits.maxConnectionsPerClient) {
      socket.destroy();
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
  });
}
