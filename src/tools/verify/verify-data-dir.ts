import { decodeEvent } from '../../events/event-codec';
import { auditCheckpoints, checkpointedRingLengths } from './checkpoint-audit';
import { auditChains } from './chain-audit';
import { Finding } from './finding';
import { auditLog, logBytes } from './log-audit';
import { LogChainAudit } from './log-chain-audit';
import { auditRings } from './ring-audit';
import { signedRecordFailure } from './signature-audit';
import { auditStartup } from './startup-audit';

export interface VerifyReport {
  readonly records: number;
  readonly signed: number;
  readonly checkpoints: number;
  /** Ring files compared with a replay, or null when the log was too damaged to replay. */
  readonly ringsCompared: number | null;
  /** Ring files whose hash chain was checked against what checkpoints sealed. */
  readonly chainsChecked: number;
  /** Checkpoints whose signed log chain value was compared with the chain recomputed from the log. */
  readonly logChainsChecked: number;
  /** The did:keys whose signatures over the log chain verified (compare with the service's own). */
  readonly signers: string[];
  readonly findings: Finding[];
}

export interface VerifyOptions {
  /** The service's published did:key: checkpoints signed by any other key are findings. */
  readonly did?: string;
}

/**
 * The audit verifier (`npm run verify -- <dir>`): log frames and offsets, signatures of signed
 * records, checkpoint seals, the log chain and room hash chains against the checkpoints, what a start would refuse,
 * and ring files against a replay of the log. Read-only and lock-free, so
 * it can run beside the service; it never stops at the first problem, so one run reports them all.
 */
export async function verifyDataDir(root: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const findings: Finding[] = [];
  let signed = 0;
  let undecodable = false;
  const bytesAtStart = logBytes(root);
  const logChain = await LogChainAudit.open(root, options.did);
  const log = await auditLog(root, (offset, payload, file) => {
    logChain.record(offset, payload);
    let event;
    try {
      event = decodeEvent(payload);
    } catch (error) {
      undecodable = true;
      findings.push({ file, offset, what: `undecodable event: ${(error as Error).message}` });
      return;
    }
    if (event.type !== 'message.appended' || event.nonce === undefined) return;
    signed++;
    const failure = signedRecordFailure(event);
    if (failure !== null) findings.push({ file, offset, what: `room ${event.room}: ${failure}` });
  });
  findings.push(...log.findings);
  logChain.finish(log.head);
  findings.push(...logChain.findings);
  const checkpoints = await stage('checkpoints', findings, () => auditCheckpoints(root));
  findings.push(...(checkpoints?.findings ?? []));
  const chains = await stage('rooms', findings, () => auditChains(root));
  findings.push(...(chains?.findings ?? []));
  // Measured against a damaged log, the log's extent would only echo the damage reported above.
  if (log.findings.length === 0) {
    findings.push(...((await stage('checkpoints', findings, () => auditStartup(root, log))) ?? []));
  }
  let ringsCompared: number | null = null;
  // A damaged or undecodable log replays only up to the damage: comparing rings would repeat that.
  if (log.findings.length === 0 && !undecodable) {
    const rings = await stage('rooms', findings, async () =>
      auditRings(root, () => logBytes(root) > bytesAtStart, await checkpointedRingLengths(root)),
    );
    ringsCompared = rings?.compared ?? null;
    findings.push(...(rings?.findings ?? []));
  }
  return {
    records: log.records,
    signed,
    checkpoints: checkpoints?.checked ?? 0,
    ringsCompared,
    chainsChecked: chains?.rooms ?? 0,
    logChainsChecked: logChain.checked,
    signers: [...logChain.signers],
    findings,
  };
}

/** Runs one check; a check that cannot run at all (unreadable directory, replay refused) is a finding. */
async function stage<T>(file: string, findings: Finding[], check: () => T | Promise<T>): Promise<T | null> {
  try {
    return await check();
  } catch (error) {
    findings.push({ file, what: `could not be checked: ${(error as Error).message}` });
    return null;
  }
}
