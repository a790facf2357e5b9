import { Injectable } from '@nestjs/common';
import { formatTimestamp } from '../../common/timestamp';
import { ProjectionRunner } from '../../projections/projection-runner';
import { idempotentWrite } from '../../write/idempotency/idempotent-write';
import { NoteWriteModel } from '../note-write.model';
import { NoteWriteAck } from '../note-write.service';
import { NoteKeyEntry, noteFingerprint, noteKeyId } from './note-keys.projection';

/** A note write as its idempotency step sees it. */
export interface KeyedNote {
  readonly key: string | undefined;
  readonly ns: string;
  readonly noteKey: string;
  /** The signer of an ownership write (its keys are scoped to it), or undefined. */
  readonly signer: string | undefined;
  /** The value after the sweep, as it would be stored. */
  readonly value: string;
}

/**
 * The first step of every note lane (issue 28): a key that names an earlier write of the same value
 * answers with that write's acknowledgement, and nothing is appended — before the namespace gate, the
 * conditions and the ownership-nonce burn, which would refuse a retry of a write that landed (a
 * retried signed write would otherwise get "nonce already used"). See idempotentWrite for the rest.
 * Conditions (`if`, `if_absent`) are not part of "the same content": they held for the write that
 * landed, and a retry is that write again.
 */
@Injectable()
export class NoteIdempotency {
  constructor(
    private readonly model: NoteWriteModel,
    private readonly runner: ProjectionRunner,
  ) {}

  run(note: KeyedNote, write: () => Promise<NoteWriteAck>): Promise<NoteWriteAck> {
    const { key, ns, noteKey, signer } = note;
    if (key === undefined) return write();
    const id = noteKeyId(ns, noteKey, signer, key);
    return idempotentWrite<NoteKeyEntry, NoteWriteAck>({
      key,
      prior: () => this.model.priorWrite(id),
      fingerprint: noteFingerprint(note.value),
      describe: (entry) => `the write of /kv/${ns}/${noteKey} at ${formatTimestamp(entry.at)}`,
      replay: (entry) => ({
        ns,
        key: noteKey,
        bytes: entry.bytes,
        at: entry.at,
        ...(entry.signer === undefined ? {} : { signer: entry.signer }),
        replayed: true,
      }),
      write,
      progress: () => this.runner.whenApplied(this.runner.nextOffset),
    });
  }
}
