/** Command-line arguments: positionals plus `--name value` options (tools read process.argv only). */
export interface ParsedArgs {
  readonly positionals: string[];
  readonly options: Record<string, string>;
}

export class UsageError extends Error {}

export function parseArgs(argv: readonly string[], known: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const name = arg.slice(2);
    if (!known.includes(name))
      throw new UsageError(`unknown option --${name} (known: ${known.map((k) => `--${k}`).join(', ')})`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
    options[name] = value;
    i++;
  }
  return { positionals, options };
}

/** A position in the log given as an offset (digits) or a time (ISO 8601), as µs since the epoch. */
export type LogPoint = { readonly offset: number } | { readonly atMicros: number };

export function parseLogPoint(text: string, option: string): LogPoint {
  if (/^\d+$/.test(text)) return { offset: Number(text) };
  const ms = Date.parse(text);
  if (Number.isNaN(ms))
    throw new UsageError(`--${option} takes a log offset or an ISO time, not ${JSON.stringify(text)}`);
  return { atMicros: ms * 1000 };
}

/** Whether the event at `offset` happening at `atMicros` lies at or past `point`. */
export function reached(point: LogPoint, offset: number, atMicros: number): boolean {
  return 'offset' in point ? offset >= point.offset : atMicros >= point.atMicros;
}
