import { auditCheckpoints, checkpointedRingLengths } from './checkpoint-audit';
import { auditChains } from './chain-audit';
import { Finding } from './finding';
import { auditLog, logBytes } from './log-audit';
import { LogChainAudit } from './log-chain-audit';
import { auditRings } from './ring-audit';
import { EventAudit } from './event-audit';
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
  const events = new EventAudit();
  const bytesAtStart = logBytes(root);
  const logChain = await LogChainAudit.open(root, options.did);
  const log = await auditLog(root, (offset, payload, file) => {
    logChain.record(offset, payload);
    events.record(offset, payload, file);
  });
  findings.push(...events.findings, ...log.findings);
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
  if (log.findings.length === 0 && !events.undecodable) {
    const rings = await stage('rooms', findings, async () =>
      auditRings(root, () => logBytes(root) > bytesAtStart, await checkpointedRingLengths(root)),
    );
    ringsCompared = rings?.compared ?? null;
    findings.push(...(rings?.findings ?? []));
  }
  return {
    records: log.records,
    signed: events.signed,
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
