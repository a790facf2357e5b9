import { AppendResult } from '../event-log';
import { LogUnavailableError } from '../log.errors';

/** A NATS atomic batch holds at most 1,000 messages (ADR-50); bytes are capped well below memory. */
export const MAX_BATCH_MESSAGES = 1000;
const MAX_BATCH_BYTES = 8 * 1024 * 1024;

/** Why one append of `records` records cannot be sent (more than one batch holds), if it cannot. */
export function tooManyRecords(records: number): LogUnavailableError | undefined {
  if (records <= MAX_BATCH_MESSAGES) return undefined;
  return new LogUnavailableError(`${records} records in one write; a NATS batch holds ${MAX_BATCH_MESSAGES}`);
}

/** One `append` call: its records, where they go, and what its decision read. */
export interface QueuedAppend {
  readonly payloads: readonly Buffer[];
  readonly subjects: readonly string[];
  /** The scope id of each record. */
  readonly scopes: readonly string[];
  readonly readThrough: number;
  readonly onFailed?: () => void;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: Error) => void;
}

/**
 * One atomic batch of AppendChains: the appends it carries, their size against NATS's limits, and its
 * place in the per-scope chains (predecessors it waits for, successors that wait for it).
 */
export class Batch {
  readonly appends: QueuedAppend[] = [];
  messages = 0;
  bytes = 0;
  /** Each scope's expected last sequence; undefined until a predecessor's ack or a lookup says. */
  readonly expected = new Map<string, number | undefined>();
  /** Scopes nobody here knew when the batch took them, with the `readThrough` of that decision. */
  readonly misses = new Map<string, number>();
  /** The stream's first sequence read before sending, when a scope goes with "no record" (0: not read). */
  floor = 0;
  readonly predecessors = new Set<Batch>();
  /** Per scope, the next batch of that scope's chain (most batches have none: created when linked). */
  successors: Map<string, Batch> | undefined;
  state: 'open' | 'resolving' | 'sent' | 'done' = 'open';

  fits(entry: QueuedAppend): boolean {
    const bytes = entry.payloads.reduce((sum, payload) => sum + payload.length, 0);
    return (
      this.messages + entry.payloads.length <= MAX_BATCH_MESSAGES && this.bytes + bytes <= MAX_BATCH_BYTES
    );
  }

  add(entry: QueuedAppend): void {
    this.appends.push(entry);
    this.messages += entry.payloads.length;
    for (const payload of entry.payloads) this.bytes += payload.length;
  }
}
