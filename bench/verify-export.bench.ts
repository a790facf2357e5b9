import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateSigningKey } from '../src/identity/signing-key';
import { chainNext, chainStart } from '../src/rooms/chain/room-chain';
import { headSigningPayload } from '../src/rooms/chain/room-head';
import { signedRecordLine, unsignedRecordLine } from '../src/rooms/read-side/stored-record';
import { makeTempDir } from '../test/support/temp-dir';
import { median } from './lib/stats';

/**
 * Offline verification speed (issue 29): tools/verify-export.mjs over a 10 MiB export, every
 * `signedEvery`th record signed (each signed record costs one Ed25519 verification), against a head
 * signed by a service key. Runs the verifier as people do (a separate node process) several times and
 * reports the median wall time and MiB/s.
 *
 *   node -r ./test/support/ts-register.js bench/verify-export.bench.ts [runs, default 5] [signedEvery, default 10]
 */
const ROOT = join(__dirname, '..');
const TARGET_BYTES = 10 * 1024 * 1024;
const TEXT = 'benchmark write with a realistic length of a short agent status update';

function main(): void {
  const runs = Number(process.argv[2] ?? '5');
  const signedEvery = Number(process.argv[3] ?? '10');
  const room = 'bench-audit';
  const writer = generateSigningKey();
  const service = generateSigningKey();
  const lines: string[] = [];
  let bytes = 0;
  let chain = chainStart(room, 1);
  let signed = 0;
  for (let seq = 1; bytes < TARGET_BYTES; seq++) {
    const ts = new Date(Date.UTC(2026, 10, 27, 18, 0, 0) + seq).toISOString();
    const text = `${TEXT} ${seq}`;
    const line =
      signedEvery > 0 && seq % signedEvery === 0
        ? signedRecordLine(seq, ts, writer.did, text, String(seq), writer.sign(`${room}|${seq}|${text}`))
        : unsignedRecordLine(seq, ts, `~writer${seq % 7}`, text);
    if (line.includes('"sig"')) signed++;
    const data = Buffer.from(`${line}\n`, 'utf8');
    chain = chainNext(chain, data);
    lines.push(`${line}\n`);
    bytes += data.length;
  }
  const unsigned = {
    room,
    generation: 1,
    first_seq: 1,
    last_seq: lines.length,
    anchor: chainStart(room, 1),
    head: chain,
    time: new Date().toISOString(),
    service_did: service.did,
  };
  const head = { ...unsigned, signature: service.sign(headSigningPayload(unsigned)) };
  const dir = makeTempDir('agent-chat-bench-verify-export');
  try {
    const exportFile = join(dir.path, 'export.jsonl');
    const headFile = join(dir.path, 'head.json');
    writeFileSync(exportFile, lines.join(''));
    writeFileSync(headFile, JSON.stringify(head));
    const seconds: number[] = [];
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const result = spawnSync(
        process.execPath,
        [join(ROOT, 'tools', 'verify-export.mjs'), exportFile, headFile],
        {
          encoding: 'utf8',
        },
      );
      seconds.push((performance.now() - started) / 1000);
      if (result.status !== 0) throw new Error(`the verifier refused the bench export: ${result.stderr}`);
    }
    const mib = bytes / (1024 * 1024);
    const time = median(seconds);
    process.stdout.write(
      `verify-export: ${mib.toFixed(1)} MiB, ${lines.length} records (${signed} signed), median of ${runs} runs ` +
        `${time.toFixed(2)} s (${seconds.map((s) => s.toFixed(2)).join(', ')}), ${(mib / time).toFixed(1)} MiB/s\n`,
    );
  } finally {
    dir.remove();
  }
}

main();
