import { Injectable } from '@nestjs/common';
import { NamespaceGate } from '../ownership/namespace-gate';
import { ConflictRetry } from '../write/conflict-retry';
import { NoteIdempotency } from './idempotency/note-idempotency';
import { PostNote, SetNote } from './note-commands';
import { parseBodyConditions, parseQueryConditions } from './note-conditions';
import { sweptNoteValue } from './note-write.rules';
import { NoteWriteAck, NoteWriteService } from './note-write.service';

/**
 * The unsigned note lanes, each in the reference's order (contract §12). Everything from the gate to
 * the append runs in one synchronous step (no await in between), so the gate's reading of the notes
 * is the state the write is decided on; after a conflict with another node's write the step runs
 * again (ConflictRetry), gate included.
 */
@Injectable()
export class NoteLanesService {
  constructor(
    private readonly gate: NamespaceGate,
    private readonly writer: NoteWriteService,
    private readonly retry: ConflictRetry,
    private readonly keys: NoteIdempotency,
  ) {}

  /** GET /kv/{ns}/{key}/set/{value}: sweep → idempotency key → namespace gate → conditions → write. */
  set({ ns, key, rawValue, conditions, idempotencyKey }: SetNote): Promise<NoteWriteAck> {
    const value = sweptNoteValue(rawValue);
    const keyed = { key: idempotencyKey, ns, noteKey: key, signer: undefined, value };
    return this.retry.run(() =>
      this.keys.run(keyed, () => {
        this.gate.admitUnsigned(ns, key, value);
        return this.writer.write({
          ns,
          key,
          value,
          conditions: parseQueryConditions(conditions),
          idempotencyKey,
        });
      }),
    );
  }

  /**
   * POST /kv/{ns}/{key} without a did (value type and sweep, `did` type checked at the edge):
   * conditions → idempotency key → namespace gate → write.
   */
  post({ ns, key, value, conditions: fields, idempotencyKey }: PostNote): Promise<NoteWriteAck> {
    const conditions = parseBodyConditions(fields);
    const keyed = { key: idempotencyKey, ns, noteKey: key, signer: undefined, value };
    return this.retry.run(() =>
      this.keys.run(keyed, () => {
        this.gate.admitUnsigned(ns, key, value);
        return this.writer.write({ ns, key, value, conditions, idempotencyKey });
      }),
    );
  }
}
