import { Row } from './context';

function fmt(value: number | undefined, digits = 0): string {
  return value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits);
}

function mib(bytes: number | undefined): string {
  return bytes === undefined ? '' : `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

/** The results as a Markdown table (what bench/README.md quotes). */
export function renderTable(rows: readonly Row[]): string {
  const header = [
    'scenario',
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'CPU',
    'peak RSS',
    'ratio',
    'goal',
    'met',
    'note',
  ];
  const lines = rows.map((r) => [
    r.scenario,
    r.target,
    fmt(r.rps),
    fmt(r.p50, 2),
    fmt(r.p99, 2),
    r.cpu === undefined ? '' : `${(r.cpu * 100).toFixed(0)} %`,
    mib(r.peakRss),
    r.ratio === undefined ? '' : r.ratio.toFixed(2),
    r.goal ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
    r.note ?? '',
  ]);
  const all = [header, ...lines];
  return all
    .map((cells) => `| ${cells.join(' | ')} |`)
    .join('\n')
    .replace(/\n/, `\n|${header.map(() => '---').join('|')}|\n`);
}
