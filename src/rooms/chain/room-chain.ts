import { createHash, hash } from 'node:crypto';

/**
 * The hash chain of a room generation (issue 29): h0 = SHA-256 of a domain-separated encoding of the
 * room and generation, hN = SHA-256(hN-1 ‖ lineN) where lineN is the stored line's exact bytes with
 * its terminating newline (the export's bytes). Hashes travel as 64 lowercase hex characters. The
 * standalone verifier (tools/verify-export.mjs) spells the same definition out again on purpose: it
 * must run without this project's code.
 *
 * node:crypto, not @noble/hashes: a 250-byte line hashes in ~0.6-1.1 µs there against ~2.5 µs in
 * @noble/hashes on this project's machine, and this runs on every applied write.
 */
const DOMAIN = 'agent-chat room chain v1';

/** h0 of `room` generation `generation`: SHA-256 of `agent-chat room chain v1\n<room>\n<generation>\n`. */
export function chainStart(room: string, generation: number): string {
  return createHash('sha256').update(`${DOMAIN}\n${room}\n${generation}\n`, 'utf8').digest('hex');
}

/**
 * The anchor of a ring that was already compacted when the service first kept chains (a checkpoint
 * from before issue 29): the hashes of the dropped lines are unknowable, so the anchor is h0's
 * encoding with the ring's first seq added. It only ever starts a chain; nothing proves what came before.
 */
export function legacyAnchor(room: string, generation: number, firstSeq: number): string {
  return createHash('sha256')
    .update(`${DOMAIN}\n${room}\n${generation}\nfrom ${firstSeq}\n`, 'utf8')
    .digest('hex');
}

/**
 * The hash after `line` (the line's bytes, newline included) follows `previous`. One buffer and the
 * one-shot `crypto.hash` (no Hash object): about half the cost of createHash().update().update().
 */
export function chainNext(previous: string, line: Uint8Array): string {
  const input = Buffer.allocUnsafe(32 + line.length);
  input.write(previous, 0, 'hex');
  input.set(line, 32);
  return hash('sha256', input, 'hex');
}

/** Folds every complete line of `bytes` into `previous` (a trailing partial line is ignored). */
export function chainOver(previous: string, bytes: Buffer): string {
  let hash = previous;
  for (let start = 0, newline = bytes.indexOf(10); newline >= 0; newline = bytes.indexOf(10, start)) {
    hash = chainNext(hash, bytes.subarray(start, newline + 1));
    start = newline + 1;
  }
  return hash;
}
