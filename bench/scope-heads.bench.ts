import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CheckpointStore, checkpointFileName } from '../src/projections/checkpoint-store';
import { LogChain } from '../src/projections/log-chain';
import { ScopeHeadsFold } from '../src/projections/scope-heads-fold';

/**
 * What scope heads cost a checkpoint (docs/scaling.md): the bytes and the time of writing a
 * checkpoint (fsync included) with the heads of SCOPES rooms and notes against the same checkpoint
 * without them, in alternating rounds (medians), and the fold's cost per applied record against the
 * log chain's, which the runner folds beside it.
 *
 * Run from the repository root:
 *   node -r ./test/support/ts-register.js bench/scope-heads.bench.ts [scopes, default 5000] [rounds, default 15]
 */
const SCOPES = Number(process.argv[2] ?? 5000);
const ROUNDS = Number(process.argv[3] ?? 15);

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A fold that saw 20 records in each of SCOPES scopes (rooms `r:…` and notes `n:…:…`), interleaved. */
function foldOf(scopes: number): ScopeHeadsFold {
  const fold = new ScopeHeadsFold();
  let offset = 0;
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < scopes; i++) {
      const scope = i % 2 === 0 ? `r:bench-room-${i}` : `n:bench-ns:note-key-${i}`;
      fold.fold({ offset: offset++, payload: Buffer.alloc(0), scope });
    }
  }
  return fold;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'scope-heads-bench-'));
  try {
    const store = new CheckpointStore(root);
    const fold = foldOf(SCOPES);
    const chain = new LogChain();
    let offset = fold.next;
    const write = async (withHeads: boolean): Promise<{ ms: number; bytes: number }> => {
      const started = performance.now();
      const projections: Record<string, unknown> = { logChain: chain.snapshot() };
      if (withHeads) projections.scopeHeads = fold.snapshot();
      const at = offset++;
      await store.write({ version: 2, offset: at, createdAt: 'bench', files: {}, projections });
      const ms = performance.now() - started;
      const bytes = statSync(join(store.dir, checkpointFileName(at))).size;
      store.delete(at);
      return { ms, bytes };
    };
    const times: Record<'with' | 'without', number[]> = { with: [], without: [] };
    let bytes = { with: 0, without: 0 };
    await write(true); // warm-up
    await write(false);
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
        const result = await write(kind === 'with');
        times[kind].push(result.ms);
        bytes = { ...bytes, [kind]: result.bytes };
      }
    }
    const records = Array.from({ length: 200_000 }, (_, i) => ({
      offset: i,
      payload: Buffer.from(
        `{"type":"message.appended","room":"r-${i % SCOPES}","text":"about sixty bytes of text"}`,
      ),
      scope: `r:bench-room-${i % SCOPES}`,
    }));
    const perRecord = (fn: () => void): number => {
      const started = performance.now();
      fn();
      return ((performance.now() - started) * 1e6) / records.length;
    };
    const foldNs: number[] = [];
    const chainNs: number[] = [];
    for (let round = 0; round < 5; round++) {
      const heads = new ScopeHeadsFold();
      const logChain = new LogChain();
      foldNs.push(perRecord(() => records.forEach((r) => heads.fold(r))));
      chainNs.push(perRecord(() => records.forEach((r) => logChain.fold(r.offset, r.payload))));
    }
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.log(`scope heads, ${SCOPES} scopes, ${ROUNDS} alternating rounds (load average ${load}):`);
    console.log(
      `  checkpoint bytes: ${bytes.with} with heads, ${bytes.without} without (+${bytes.with - bytes.without})`,
    );
    console.log(
      `  checkpoint write (median, fsync included): ${median(times.with).toFixed(2)} ms with heads, ` +
        `${median(times.without).toFixed(2)} ms without (ratio ${(median(times.with) / median(times.without)).toFixed(2)})`,
    );
    console.log(
      `  fold per applied record (median of 5 x 200,000): ${median(foldNs).toFixed(0)} ns, ` +
        `against ${median(chainNs).toFixed(0)} ns for the log chain`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
