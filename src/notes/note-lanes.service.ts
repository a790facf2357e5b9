import { Injectable } from '@nestjs/common';
import { stringField } from '../http/body/body-fields';
import { JsonObject } from '../http/body/json-object.parser';
import { Query } from '../http/url/query-parser';
import { NamespaceGate } from '../ownership/namespace-gate';
import { parseBodyConditions, parseQueryConditions } from './note-conditions';
import { sweptNoteValue } from './note-rules';
import { NoteWriteAck, NoteWriteService } from './note-write.service';
import { SignedNoteLaneService } from './signed-note-lane.service';

/**
 * The unsigned note lanes and the POST dispatch, each in the reference's order (contract §12).
 * Everything from the gate to the append runs in one synchronous step (no await in between), so the
 * gate's reading of the notes is the state the write is decided on.
 */
@Injectable()
export class NoteLanesService {
  constructor(
    private readonly gate: NamespaceGate,
    private readonly writer: NoteWriteService,
    private readonly signed: SignedNoteLaneService,
  ) {}

  /** GET /kv/{ns}/{key}/set/{value}: sweep → namespace gate → conditions → write. */
  set(ns: string, key: string, rawValue: string, query: Query): Promise<NoteWriteAck> {
    const value = sweptNoteValue(rawValue);
    return this.writer.write(() => {
      this.gate.admitUnsigned(ns, key, value);
      return { ns, key, value, conditions: parseQueryConditions(query) };
    });
  }

  /**
   * POST /kv/{ns}/{key}: `value` type and sweep → `did` type; a non-empty did selects the signed
   * lane; unsigned: conditions → namespace gate → write.
   */
  post(ns: string, key: string, body: JsonObject): Promise<NoteWriteAck> {
    const value = sweptNoteValue(stringField(body, 'value'));
    const did = stringField(body, 'did').trim();
    if (did !== '') return this.signed.post(ns, key, did, value, body);
    const conditions = parseBodyConditions(body);
    return this.writer.write(() => {
      this.gate.admitUnsigned(ns, key, value);
      return { ns, key, value, conditions };
    });
  }
}
