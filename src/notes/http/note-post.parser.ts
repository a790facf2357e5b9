import { stringField, trimmedStringField } from '../../http/body/body-fields';
import { JsonObject } from '../../http/body/json-object.parser';
import { PostNote, PostSignedNote } from '../note-commands';
import { sweptNoteValue } from '../note-write.rules';

/** A POST /kv/{ns}/{key} body as a lane's command: a non-empty `did` selects the signed lane. */
export type NotePost =
  | { readonly lane: 'signed'; readonly command: PostSignedNote }
  | { readonly lane: 'unsigned'; readonly command: PostNote };

/**
 * The first checks of POST /kv/{ns}/{key} (contract §10.3, §10.4): `value` must be a string when
 * present, and is swept here (its 400s come before anything about `did`), then `did` must be a string;
 * on the signed lane `sig` and `nonce` too (trimmed, a JSON number nonce refused). The conditions are
 * passed on as sent: the signed lane reads them after verifying the signature.
 */
export function parseNotePost(body: JsonObject, ns: string, key: string, idempotencyKey?: string): NotePost {
  const value = sweptNoteValue(stringField(body, 'value'));
  const did = trimmedStringField(body, 'did');
  const conditions = { if: body.if, if_absent: body.if_absent };
  if (did === '') return { lane: 'unsigned', command: { ns, key, value, conditions, idempotencyKey } };
  const sig = trimmedStringField(body, 'sig');
  const nonce = trimmedStringField(body, 'nonce');
  return { lane: 'signed', command: { ns, key, value, did, sig, nonce, conditions, idempotencyKey } };
}
