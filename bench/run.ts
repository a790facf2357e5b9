import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT } from './lib/child-server';
import { BenchOptions, log, Row, Scenario } from './lib/context';
import { renderTable } from './lib/table';
import { longPollScenario } from './scenarios/long-poll.scenario';
import { memoryScenario } from './scenarios/memory.scenario';
import { readsScenario } from './scenarios/reads.scenario';
import { restartScenario } from './scenarios/restart.scenario';
import { roomsListingScenario } from './scenarios/rooms-listing.scenario';
import { signedScenario } from './scenarios/signed.scenario';
import { streamsScenario } from './scenarios/streams.scenario';
import { streamBytesScenario } from './stream-bytes.bench';
import { watchScenario } from './scenarios/watch.scenario';
import { writesScenario } from './scenarios/writes.scenario';

const SCENARIOS: readonly Scenario[] = [
  readsScenario,
  writesScenario,
  signedScenario,
  longPollScenario,
  roomsListingScenario,
  restartScenario,
  memoryScenario,
  streamsScenario,
  watchScenario,
  streamBytesScenario,
];

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** `npm run bench [-- --only reads,writes --rounds 3 --seconds 5 --connections 32]`: see bench/README.md. */
async function main(): Promise<void> {
  const options: BenchOptions = {
    rounds: Number(option('rounds', '3')),
    seconds: Number(option('seconds', '5')),
    connections: Number(option('connections', '32')),
  };
  const only = option('only', SCENARIOS.map((s) => s.name).join(',')).split(',');
  const unknown = only.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`,
    );
  }
  execFileSync(process.execPath, [join(PROJECT, 'scripts', 'ensure-built.js')], { stdio: 'inherit' });
  const rows: Row[] = [];
  for (const scenario of SCENARIOS.filter((s) => only.includes(s.name))) {
    log(`scenario ${scenario.name} …`);
    rows.push(...(await scenario.run(options)));
  }
  const table = renderTable(rows);
  process.stdout.write(`\n${table}\n`);
  mkdirSync(join(PROJECT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(PROJECT, 'bench', 'results', 'latest.md'), `${table}\n`);
  writeFileSync(join(PROJECT, 'bench', 'results', 'latest.json'), JSON.stringify({ options, rows }, null, 1));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
