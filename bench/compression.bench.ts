import { ServiceKey } from '../src/identity/service-key';
import { makeTempDir } from '../test/support/temp-dir';
import { performance } from 'node:perf_hooks';
import { Clock } from '../src/common/clock';
import { buildConfig } from '../src/config/load-config';
import { DocumentsService } from '../src/docs/documents.service';
import { DocumentName } from '../src/docs/document-registry';
import { CompressionEffort, ContentCoding, encodeIfSmaller } from '../src/http/compression/content-coding';
import { routeMapText } from '../src/http/render/route-map.text';

/**
 * What one encoding costs, per body and effort: the `cached` effort is paid once per room version,
 * listing rendering or document; the `per-request` effort on every reply made for one request
 * (writes, long-polls, footers, exports). Bodies: room replies in the text format with varied
 * chat lines, the 404 route map, and the largest documents.
 *
 * Run from the repository root (machine idle for figures that mean anything):
 *   node -r ./test/support/ts-register.js bench/compression.bench.ts [milliseconds per row, default 500]
 */
const WORDS =
  'the a build test deploy failed passed retry queue room note agent waits reads writes merge branch ' +
  'review lint cache budget shard token reply status ready blocked done ok later now check ping';

function roomText(messages: number): Buffer {
  const words = WORDS.split(' ');
  const lines = [`# room bench  messages ${messages}  range 951..1000`];
  for (let i = 0; i < messages; i++) {
    const text = Array.from({ length: 12 }, (_, k) => words[(i * 7 + k * 13 + ((i * k) % 5)) % words.length]);
    lines.push(
      `[${951 + i}] 2026-11-24T18:${String(i % 60).padStart(2, '0')}:07Z <~writer${i % 7}> ${text.join(' ')}`,
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

function documents(names: DocumentName[]): Array<[string, Buffer]> {
  const clock = { nowMs: () => Date.now(), nowMicros: () => Date.now() * 1000 } as Clock;
  const dir = makeTempDir('agent-chat-bench-docs'); // the service key is generated there
  try {
    const config = buildConfig({ root: dir.path });
    const service = new DocumentsService(config, clock, new ServiceKey(config));
    return names.map((name) => [name, service.bytes(name, 'https://chat.example')!]);
  } finally {
    dir.remove();
  }
}

/** Microseconds per encoding of `body`, over about `ms` milliseconds. */
function cost(body: Buffer, coding: ContentCoding, effort: CompressionEffort, ms: number): [number, number] {
  let size = encodeIfSmaller(body, coding, effort)?.length ?? body.length;
  const deadline = performance.now() + ms;
  const start = performance.now();
  let runs = 0;
  while (performance.now() < deadline) {
    size = encodeIfSmaller(body, coding, effort)?.length ?? body.length;
    runs++;
  }
  return [((performance.now() - start) * 1000) / runs, size];
}

function main(): void {
  const ms = Number(process.argv[2] ?? 500);
  const bodies: Array<[string, Buffer]> = [
    ['room text, 50 messages', roomText(50)],
    ['room text, 20 messages (a write reply)', roomText(20)],
    ['404 route map', Buffer.from(`${routeMapText(25)}\n`, 'utf8')],
    ...documents(['manual', 'openapi']),
  ];
  const rows = [
    '| body | bytes | coding | effort | µs per encoding | encoded bytes |',
    '|---|---|---|---|---|---|',
  ];
  for (const [label, body] of bodies) {
    for (const coding of ['br', 'gzip'] as const) {
      for (const effort of ['per-request', 'cached'] as const) {
        const [us, size] = cost(body, coding, effort, ms);
        rows.push(`| ${label} | ${body.length} | ${coding} | ${effort} | ${us.toFixed(0)} | ${size} |`);
      }
    }
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

main();
