/**
 * The checkpoint file format (version 2): JSON lines, so a checkpoint of any size is written and read
 * as a stream of small lines and never as one giant string.
 *
 *   ["header", {"version":2,"offset":…,"createdAt":…,"files":{…}}]
 *   ["value", "<projection>", "<field>" | null, <JSON value>]     a snapshot field (or a whole snapshot)
 *   ["items", "<projection>", "<field>"]                           starts an array field…
 *   ["item", <JSON value>]                                         …one line per element
 *   ["end", "<sha-256 hex of every byte before this line>"]
 *
 * A snapshot that is a plain object has each of its fields written separately, arrays element by
 * element; any other snapshot is one `value` line with a null field. Reading reassembles the same
 * JavaScript values, so projections keep plain `snapshot()` / `restore()` methods. Among them,
 * `logChain` (issue 29) is the whole log's hash chain at `offset` with the service key's signature
 * (log-chain.ts; docs/operations.md, "The log chain"); checkpoints without it still load. And
 * `scopeHeads` is every scope's last record below `offset` (scope-heads-fold.ts: `offset`, then one
 * `[scope, offset of its last record]` item per scope); checkpoints without it load knowing none.
 */
export interface CheckpointHeader {
  readonly version: 2;
  /** The next log offset to apply after restoring this checkpoint. */
  readonly offset: number;
  readonly createdAt: string;
  /** Ring file name → length valid at `offset`. */
  readonly files: Record<string, number>;
}

export interface Checkpoint extends CheckpointHeader {
  readonly projections: Record<string, unknown>;
}

export type CheckpointLine =
  | ['header', CheckpointHeader]
  | ['value', string, string | null, unknown]
  | ['items', string, string]
  | ['item', unknown]
  | ['end', string];

/** The lines of a checkpoint, in order, without the closing `end` line. */
export function* checkpointLines(checkpoint: Checkpoint): Generator<string> {
  const { projections, ...header } = checkpoint;
  yield JSON.stringify(['header', header]);
  for (const [name, snapshot] of Object.entries(projections)) {
    if (snapshot === null || typeof snapshot !== 'object' || Array.isArray(snapshot)) {
      yield JSON.stringify(['value', name, null, snapshot]);
      continue;
    }
    for (const [field, value] of Object.entries(snapshot)) {
      if (!Array.isArray(value)) {
        yield JSON.stringify(['value', name, field, value]);
        continue;
      }
      yield JSON.stringify(['items', name, field]);
      for (const item of value) yield JSON.stringify(['item', item]);
    }
  }
}

/** Reassembles a checkpoint from its parsed lines (the `end` line already checked and removed). */
export class CheckpointAssembler {
  private header: CheckpointHeader | null = null;
  private readonly projections: Record<string, unknown> = {};
  private current: unknown[] | null = null;

  add(line: CheckpointLine): void {
    switch (line[0]) {
      case 'header':
        this.header = line[1];
        return;
      case 'value': {
        const [, name, field, value] = line;
        if (field === null) this.projections[name] = value;
        else this.fields(name)[field] = value;
        this.current = null;
        return;
      }
      case 'items':
        this.current = [];
        this.fields(line[1])[line[2]] = this.current;
        return;
      case 'item':
        if (this.current === null) throw new Error('checkpoint item outside an array');
        this.current.push(line[1]);
        return;
      case 'end':
        return;
    }
  }

  result(): Checkpoint {
    if (this.header === null) throw new Error('checkpoint without a header');
    return { ...this.header, projections: this.projections };
  }

  private fields(name: string): Record<string, unknown> {
    const existing = this.projections[name];
    if (existing !== undefined && existing !== null && typeof existing === 'object')
      return existing as Record<string, unknown>;
    const created: Record<string, unknown> = {};
    this.projections[name] = created;
    return created;
  }
}
