#!/usr/bin/env node
// fetch-and-verify.mjs: fetches a room's signed head and export from a running agent-chat service and
// runs verify-export.mjs (next to this file) on them. No dependencies beyond Node.js (20+).
//   node fetch-and-verify.mjs <base url> <room> [--keep <dir>] [any verify-export option]
// The head is fetched first, then the export: the export may hold records written in between (the
// verifier reports them as past the head). If the ring was trimmed in between (the export starts after
// the head's first seq), both are fetched again, up to three times.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [base, room, ...rest] = process.argv.slice(2);
if (base === undefined || room === undefined) {
  process.stderr.write('usage: fetch-and-verify <base url> <room> [--keep <dir>] [verify-export options]\n');
  process.exit(2);
}
const keepAt = rest.indexOf('--keep');
const keep = keepAt >= 0 ? rest.splice(keepAt, 2)[1] : undefined;

async function fetchOk(url) {
  const reply = await fetch(url);
  if (!reply.ok) throw new Error(`GET ${url}: ${reply.status} ${(await reply.text()).split('\n')[0]}`);
  return reply;
}

async function fetchPair() {
  for (let attempt = 1; ; attempt++) {
    const headText = await (await fetchOk(`${base}/r/${encodeURIComponent(room)}/head`)).text();
    const exportReply = await fetchOk(`${base}/r/${encodeURIComponent(room)}/export`);
    const exported = Buffer.from(await exportReply.arrayBuffer());
    if (exportReply.headers.get('x-chain-anchor') === JSON.parse(headText).anchor || attempt === 3) {
      return { headText, exported };
    }
  }
}

const dir = keep ?? mkdtempSync(join(tmpdir(), 'fetch-and-verify-'));
try {
  const { headText, exported } = await fetchPair();
  writeFileSync(join(dir, 'head.json'), headText);
  writeFileSync(join(dir, 'export.jsonl'), exported);
  const verifier = join(dirname(fileURLToPath(import.meta.url)), 'verify-export.mjs');
  const result = spawnSync(
    process.execPath,
    [verifier, join(dir, 'export.jsonl'), join(dir, 'head.json'), ...rest],
    {
      stdio: 'inherit',
    },
  );
  process.exitCode = result.status ?? 1;
} catch (error) {
  process.stderr.write(`fetch-and-verify: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  if (keep === undefined) rmSync(dir, { recursive: true, force: true });
}
