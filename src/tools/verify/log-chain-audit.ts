import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseDidKey } from '../../identity/did-key';
import { verifyEd25519 } from '../../identity/ed25519-verifier';
import { decodeSignature } from '../../identity/signature-encoding';
import {
  LOG_CHAIN_START,
  LogChainState,
  logChainNext,
  logCheckpointPayload,
} from '../../projections/log-chain';
import { CheckpointStore, checkpointFileName } from '../../projections/checkpoint-store';
import { Finding } from './finding';

interface Seal extends LogChainState {
  readonly checkpoint: string;
}

/**
 * The whole log's hash chain against the checkpoints (issue 29). Every checkpoint records the chain
 * value at its offset, signed by the service key; folding the log's records must reach each value.
 * A record rewritten with its CRC fixed, removed (offsets renumbered) or swapped with another changes
 * every value after it, so the first checkpoint past it disagrees: the finding names the offsets
 * between the last checkpoint that agreed and that one. A value whose signature does not verify is
 * reported on its own (a forged checkpoint), and is never used to resume the chain.
 *
 * Fed record by record by the log walk (`record`), so the log is read once.
 */
export class LogChainAudit {
  /** The keys that signed the checkpoints' values: one, unless the service key was replaced. */
  readonly signers = new Set<string>();
  private hash: string | null = null;
  private lastGood = 0;
  private readonly pending: Seal[] = [];
  readonly findings: Finding[] = [];
  /** Checkpoints whose signed value was compared with the recomputed chain. */
  checked = 0;

  /**
   * `pinnedDid`: the service's published did:key (its `GET /r/{room}/head` answers name it). Without
   * it a value is only as good as the key that signed it, and whoever can rewrite the directory can
   * also sign with a key of their own; with it, a value signed by any other key is a finding.
   */
  static async open(root: string, pinnedDid?: string): Promise<LogChainAudit> {
    const seals: Seal[] = [];
    if (existsSync(join(root, 'checkpoints'))) {
      const store = new CheckpointStore(root);
      for (const offset of store.offsets()) {
        const state = (await store.read(offset).catch(() => null))?.projections.logChain as
          LogChainState | undefined;
        if (state !== undefined) seals.push({ ...state, checkpoint: checkpointFileName(offset) });
      }
    }
    const audit = new LogChainAudit();
    for (const seal of seals) {
      const file = `checkpoints/${seal.checkpoint}`;
      if (!signatureValid(seal))
        audit.findings.push({
          file,
          offset: seal.offset,
          what: 'log chain: the signature over the recorded value does not verify (forged or damaged checkpoint)',
        });
      else if (pinnedDid !== undefined && seal.did !== pinnedDid)
        audit.findings.push({
          file,
          offset: seal.offset,
          what: `log chain: the recorded value is signed by ${seal.did}, not by the service key given (${pinnedDid})`,
        });
      else {
        audit.signers.add(seal.did!);
        audit.pending.push(seal);
      }
    }
    audit.pending.sort((a, b) => a.offset - b.offset);
    return audit;
  }

  /** The record at `offset` (log order). */
  record(offset: number, payload: Buffer): void {
    this.compareAt(offset);
    if (this.hash !== null) this.hash = logChainNext(this.hash, offset, payload);
  }

  /** After the last record: compares the checkpoints at the log's end. */
  finish(head: number): void {
    this.compareAt(head);
  }

  private compareAt(offset: number): void {
    // A chain a start began at a stand-in anchor (its checkpoint predated log chains) restarts there.
    const anchored = offset > 0 ? this.pending.find((s) => s.anchorOffset === offset) : undefined;
    if (anchored !== undefined) {
      this.hash = anchored.anchor;
      this.lastGood = offset;
    } else if (this.hash === null) {
      // From the log's start or, when the log before it was compacted, from the oldest signed value.
      const start = offset === 0 ? undefined : this.pending.find((s) => s.offset === offset);
      if (offset === 0) this.hash = LOG_CHAIN_START;
      else if (start !== undefined) this.hash = start.hash;
      this.lastGood = offset;
    }
    while (this.pending.length > 0 && this.pending[0].offset <= offset) {
      const seal = this.pending.shift()!;
      if (seal.offset < offset || this.hash === null) continue; // before the log's start
      this.checked++;
      if (seal.hash === this.hash) {
        this.lastGood = offset;
        continue;
      }
      this.findings.push({
        file: `checkpoints/${seal.checkpoint}`,
        offset: this.lastGood,
        what:
          `log chain: records ${this.lastGood} to ${offset - 1} do not chain to the value this checkpoint ` +
          'signed: a record there was changed, removed or reordered after the checkpoint',
      });
      this.hash = seal.hash; // resume from the signed value, to place any later damage on its own
      this.lastGood = offset;
    }
  }
}

function signatureValid(seal: Seal): boolean {
  if (seal.did === undefined || seal.signature === undefined) return false;
  try {
    const payload = Buffer.from(logCheckpointPayload(seal.offset, seal.hash, seal.did), 'utf8');
    return verifyEd25519(parseDidKey(seal.did), payload, decodeSignature(seal.signature));
  } catch {
    return false;
  }
}
