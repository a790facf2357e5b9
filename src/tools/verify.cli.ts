import { parseArgs, UsageError } from './cli-args';
import { runTool } from './cli-runner';
import { existingDataDir } from './data-dir-arg';
import { isDidKey } from '../identity/did-key';
import { Finding, formatFinding } from './verify/finding';
import { verifyStream } from './verify/verify-stream';
import { toolNatsOptions } from './tool-nats-options';
import { verifyDataDir } from './verify/verify-data-dir';

const USAGE = [
  'usage: npm run verify -- <data dir> [--did <did:key>]',
  '       npm run verify -- --nats <stream>',
  '',
  'Audits a data directory without changing it (safe while the service runs; takes no lock):',
  "  every log frame's checksum and length, contiguous offsets across segments, every signed",
  "  message's signature, every checkpoint's SHA-256 seal, and every ring file against a replay of",
  '  the log, byte for byte. Exit 0 when all hold; 1 with one line per problem (file, offset or byte,',
  '  what differs) when anything does not.',
  '',
  "  --did <did:key>  the service's published key (service_did in its /.well-known/agent.json):",
  '                   a checkpoint signed by any other key is a problem. Without it the summary names',
  '                   the keys that signed, to compare by eye.',
  '',
  '  --nats <stream>  audits a NATS stream instead (CHAT_NATS_URL and credentials from the',
  '                   environment): its whole history from offset 0, the archive chunks below the',
  "                   stream's first record (CHAT_NATS_ARCHIVE) checked against their digests,",
  '                   offsets contiguous, every event decodable, every signed message signed.',
].join('\n');

async function main(argv: readonly string[]): Promise<void> {
  const { positionals, options } = parseArgs(argv, ['did', 'nats']);
  if (options.nats !== undefined) {
    if (positionals.length > 0 || options.did !== undefined)
      throw new UsageError('--nats <stream> takes no data directory and no --did');
    return verifyNats(options.nats);
  }
  if (positionals.length !== 1) throw new UsageError('give exactly one data directory');
  if (options.did !== undefined && !isDidKey(options.did))
    throw new UsageError(
      `--did takes an Ed25519 did:key (did:key:z6Mk…), not ${JSON.stringify(options.did)}`,
    );
  const report = await verifyDataDir(existingDataDir(positionals[0]), { did: options.did });
  const rings =
    report.ringsCompared === null ? 'not compared (the log is damaged)' : `${report.ringsCompared} compared`;
  const summary = `${report.records} log records, ${report.signed} signed, ${report.checkpoints} checkpoints, ring files ${rings}, room chains ${report.chainsChecked} checked, log chain ${report.logChainsChecked} checkpoints${signedBy(report.signers, options.did)}`;
  printReport(summary, report.findings);
}

async function verifyNats(stream: string): Promise<void> {
  const report = await verifyStream(toolNatsOptions(stream));
  const archive = report.archive === null ? 'no archive' : `${report.archived} from ${report.archive}`;
  printReport(
    `stream ${stream}: ${report.records} records (${archive}), ${report.signed} signed`,
    report.findings,
  );
}

function printReport(summary: string, findings: readonly Finding[]): void {
  if (findings.length === 0) {
    process.stdout.write(`verify: OK: ${summary}\n`);
    return;
  }
  process.stdout.write(`verify: ${findings.length} problem(s): ${summary}\n`);
  for (const finding of findings) process.stdout.write(`  ${formatFinding(finding)}\n`);
  process.exitCode = 1;
}

function signedBy(signers: readonly string[], pinned: string | undefined): string {
  if (signers.length === 0) return '';
  return ` signed by ${signers.join(', ')}${pinned === undefined ? '' : ' (the key given)'}`;
}

if (require.main === module) runTool(USAGE, process.argv.slice(2), main);
