import { Injectable } from '@nestjs/common';
import { trimmedStringField } from '../http/body/body-fields';
import { JsonObject } from '../http/body/json-object.parser';
import { Query } from '../http/url/query-parser';
import { assertSignature } from '../identity/signature-check';
import { SignatureVerifier } from '../identity/signature-verifier.service';
import { noteSigningPayload } from '../identity/signing-payload';
import { NamespaceGate } from '../ownership/namespace-gate';
import { NoteConditions, parseBodyConditions, parseQueryConditions } from './note-conditions';
import { sweptNoteValue } from './note-rules';
import { NoteWriteAck, NoteWriteService } from './note-write.service';

interface SignedNote {
  readonly ns: string;
  readonly key: string;
  readonly value: string;
  readonly did: string;
  readonly nonce: string;
}

/**
 * The signed note lanes (contract §10.4): nonce, did and signature encoding (400) → verification over
 * `ns|key|nonce|value` with the swept value (403 with the canonical string) → namespace gate and
 * conditions (GET: gate first; POST: conditions first) → nonce burn (403) → write (409/400).
 */
@Injectable()
export class SignedNoteLaneService {
  constructor(
    private readonly gate: NamespaceGate,
    private readonly writer: NoteWriteService,
    private readonly verifier: SignatureVerifier,
  ) {}

  /** GET /kv/{ns}/{key}/set-signed/{did}/{sig}/{nonce}/{value}. */
  async setSigned(
    note: { ns: string; key: string; did: string; sig: string; nonce: string; rawValue: string },
    query: Query,
  ): Promise<NoteWriteAck> {
    const value = sweptNoteValue(note.rawValue);
    const signed = { ...note, value };
    await assertSignature(this.verifier, note, (nonceAsSent) =>
      noteSigningPayload(note.ns, note.key, nonceAsSent, value),
    );
    // The query's conditions are read after the gate, as the reference orders this lane.
    return this.write(signed, () => parseQueryConditions(query));
  }

  /** POST /kv/{ns}/{key} with a non-empty `did` (type-checked and trimmed), value already swept. */
  async post(ns: string, key: string, did: string, value: string, body: JsonObject): Promise<NoteWriteAck> {
    const sig = trimmedStringField(body, 'sig');
    const nonce = trimmedStringField(body, 'nonce');
    await assertSignature(this.verifier, { did, sig, nonce }, (nonceAsSent) =>
      noteSigningPayload(ns, key, nonceAsSent, value),
    );
    const conditions = parseBodyConditions(body);
    return this.write({ ns, key, value, did, nonce }, () => conditions);
  }

  /** Gate and write in one step, both re-run if another node's write lands first (see NoteWriteService). */
  private write(note: SignedNote, conditions: () => NoteConditions): Promise<NoteWriteAck> {
    return this.writer.write(() => {
      const { firstClaim } = this.gate.admitSigned(note.ns, note.key, note.value, note.did);
      return {
        ns: note.ns,
        key: note.key,
        value: note.value,
        conditions: conditions(),
        signed: { did: note.did, nonce: note.nonce },
        resetAllowList: firstClaim,
      };
    });
  }
}
