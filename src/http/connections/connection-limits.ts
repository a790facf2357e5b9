import { readFileSync } from 'node:fs';

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

export interface ConnectionCaps {
  /** Open connections in total (CHAT_MAX_CONNECTIONS, resolved by effectiveMaxConnections). */
  readonly maxConnections: number;
  /** Open connections one client address may hold (Infinity behind a trusted proxy). */
  readonly maxConnectionsPerClient: number;
}

/**
 * How many connections one client address may hold while `open` connections are open (issue 24 item
 * 7): its whole per-client cap (never more than half the total) while fewer than half the total are
 * open; past half, its share of what is free, `max(1, floor(cap × free / (total / 2)))`, shrinking to
 * one as the pool fills. So a few addresses cannot take the pool (74 filled 18,720 before; about 300
 * are needed now), and near the total only an address holding none is admitted — by shedding the
 * longest idle connection if need be (ConnectionGovernor). Behind a trusted proxy every connection is
 * the proxy's: no share applies.
 */
export function clientShare(caps: ConnectionCaps, open: number): number {
  const { maxConnections: total, maxConnectionsPerClient: perClient } = caps;
  if (!Number.isFinite(perClient)) return Infinity;
  const half = total / 2;
  const cap = Math.min(perClient, Math.ceil(half));
  if (open < half) return cap;
  return Math.max(1, Math.floor((cap * (total - open)) / half));
}
