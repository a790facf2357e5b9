import { Injectable } from '@nestjs/common';
import { assertSignature } from '../identity/signature-check';
import { SignatureVerifier } from '../identity/signature-verifier.service';
import { noteSigningPayload } from '../identity/signing-payload';
import { NamespaceGate } from '../ownership/namespace-gate';
import { ConflictRetry } from '../write/conflict-retry';
import { NoteIdempotency } from './idempotency/note-idempotency';
import { PostSignedNote, SetSignedNote } from './note-commands';
import { NoteConditions, parseBodyConditions, parseQueryConditions } from './note-conditions';
import { sweptNoteValue } from './note-write.rules';
import { NoteWriteAck, NoteWriteService } from './note-write.service';

/**
 * The signed note lanes (contract §10.4): nonce, did and signature encoding (400) → verification over
 * `ns|key|nonce|value` with the swept value (403 with the canonical string) → idempotency key (scoped
 * to the verified signer; a retry answers like its write, before the burn) → namespace gate and
 * conditions (GET: gate first; POST: conditions first) → nonce burn (403) → write (409/400). From the
 * gate to the append is one synchronous step, run again after a conflict (ConflictRetry).
 */
@Injectable()
export class SignedNoteLaneService {
  constructor(
    private readonly verifier: SignatureVerifier,
    private readonly gate: NamespaceGate,
    private readonly writer: NoteWriteService,
    private readonly retry: ConflictRetry,
    private readonly keys: NoteIdempotency,
  ) {}

  /** GET /kv/{ns}/{key}/set-signed/{did}/{sig}/{nonce}/{value}: sweep → signature → gate → conditions → write. */
  async setSigned(command: SetSignedNote): Promise<NoteWriteAck> {
    const { ns, key, did, nonce } = command;
    const value = sweptNoteValue(command.rawValue);
    await assertSignature(this.verifier, command, (nonceAsSent) =>
      noteSigningPayload(ns, key, nonceAsSent, value),
    );
    // The query's conditions are read after the gate, as the reference orders this lane.
    const note = { ns, key, value, did, nonce, idempotencyKey: command.idempotencyKey };
    return this.admitAndWrite(note, () => parseQueryConditions(command.conditions));
  }

  /** POST /kv/{ns}/{key} with a did (value swept, field types checked at the edge): signature → conditions → gate → write. */
  async post(command: PostSignedNote): Promise<NoteWriteAck> {
    const { ns, key, value, did, nonce } = command;
    await assertSignature(this.verifier, command, (nonceAsSent) =>
      noteSigningPayload(ns, key, nonceAsSent, value),
    );
    const conditions = parseBodyConditions(command.conditions);
    return this.admitAndWrite(
      { ns, key, value, did, nonce, idempotencyKey: command.idempotencyKey },
      () => conditions,
    );
  }

  /**
   * The gate and the write, decided again together after a conflict with another node's write:
   * `conditions` runs after the gate admitted the signer (the GET lane parses its query there).
   */
  private admitAndWrite(
    note: {
      readonly ns: string;
      readonly key: string;
      readonly value: string;
      readonly did: string;
      readonly nonce: string;
      readonly idempotencyKey: string | undefined;
    },
    conditions: () => NoteConditions,
  ): Promise<NoteWriteAck> {
    const { ns, key, value, did, nonce, idempotencyKey } = note;
    const keyed = { key: idempotencyKey, ns, noteKey: key, signer: did, value };
    return this.retry.run(() =>
      this.keys.run(keyed, () => {
        const { firstClaim } = this.gate.admitSigned(ns, key, value, did);
        return this.writer.write({
          ns,
          key,
          value,
          conditions: conditions(),
          signed: { did, nonce },
          resetAllowList: firstClaim,
          idempotencyKey,
        });
      }),
    );
  }
}
