import { createHash, hash } from 'node:crypto';
import { ChatEvent } from '../events/chat-event';
import { Projection } from './projection';

/**
 * The hash chain of the whole event log (issue 29): L0 = SHA-256("agent-chat log chain v1\n"),
 * L(n) = SHA-256(L(n-1) ‖ offset as 8-byte big-endian ‖ the record's exact stored event bytes), in
 * offset order. It covers every record, so note writes and ownership changes (which no room chain
 * holds) are sealed too. Deterministic: replay and every NATS node reach the same value at an offset.
 */
const DOMAIN = 'agent-chat log chain v1';

export const LOG_CHAIN_START = createHash('sha256').update(`${DOMAIN}\n`, 'utf8').digest('hex');

/**
 * Where a chain starts when the newest checkpoint predates log chains and the log before it is gone:
 * SHA-256("agent-chat log chain v1\nfrom <offset>\n"). It proves nothing about records before `offset`.
 */
export function logChainLegacyAnchor(offset: number): string {
  return createHash('sha256').update(`${DOMAIN}\nfrom ${offset}\n`, 'utf8').digest('hex');
}

/** L(n) from L(n-1): one buffer and the one-shot crypto.hash, as the room chain does. */
export function logChainNext(previous: string, offset: number, payload: Uint8Array): string {
  const input = Buffer.allocUnsafe(40 + payload.length);
  input.write(previous, 0, 'hex');
  input.writeBigUInt64BE(BigInt(offset), 32);
  input.set(payload, 40);
  return hash('sha256', input, 'hex');
}

/**
 * The bytes a checkpoint's log chain signature covers (UTF-8, each line ending in `\n`):
 * `agent-chat log checkpoint v1`, the offset (the next record to apply), the chain value after every
 * record before it, the service did:key. docs/operations.md documents it for verifiers.
 */
export function logCheckpointPayload(offset: number, chain: string, did: string): string {
  return ['agent-chat log checkpoint v1', offset, chain, did, ''].join('\n');
}

/** What a checkpoint records as projection `logChain` (the runner folds it; CheckpointService signs it). */
export interface LogChainState {
  /** The next offset to fold: `hash` is the chain value over every record before it. */
  readonly offset: number;
  readonly hash: string;
  /** Where this chain started: 0 and L0, or a legacy anchor (see logChainLegacyAnchor). */
  readonly anchorOffset: number;
  readonly anchor: string;
  /** Added by CheckpointService: the service did and its signature over logCheckpointPayload. */
  readonly did?: string;
  readonly signature?: string;
}

/**
 * The running log chain, kept by the projection runner (it alone sees each record's stored bytes).
 * A Projection only so checkpoints save and restore it by name: `apply` has nothing to do.
 */
export class LogChain implements Projection {
  readonly name = 'logChain';
  private next = 0;
  private hash = LOG_CHAIN_START;
  private anchorOffset = 0;
  private anchor = LOG_CHAIN_START;

  apply(_event: ChatEvent, _offset: number): void {}

  /** Folds the record at `offset` (called by the runner in offset order, after it applied). */
  fold(offset: number, payload: Uint8Array): void {
    this.hash = logChainNext(this.hash, offset, payload);
    this.next = offset + 1;
  }

  /** Replay starts at `offset` with no chain restored (a checkpoint from before log chains). */
  startAt(offset: number): void {
    if (this.next === offset) return;
    this.anchor = this.hash = logChainLegacyAnchor(offset);
    this.anchorOffset = this.next = offset;
  }

  snapshot(): LogChainState {
    return { offset: this.next, hash: this.hash, anchorOffset: this.anchorOffset, anchor: this.anchor };
  }

  restore(state: unknown): void {
    ({
      offset: this.next,
      hash: this.hash,
      anchorOffset: this.anchorOffset,
      anchor: this.anchor,
    } = state as LogChainState);
  }
}
