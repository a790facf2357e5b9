import { stringField, trimmedStringField } from '../../http/body/body-fields';
import { JsonObject } from '../../http/body/json-object.parser';
import { PostMessage, SignedMessage } from '../message-commands';

/** A POST /r/{room} body as a lane's command: a non-empty `did` selects the signed lane. */
export type MessagePost =
  | { readonly lane: 'signed'; readonly command: SignedMessage }
  | { readonly lane: 'unsigned'; readonly command: PostMessage };

/**
 * The field types of POST /r/{room}, first of its checks (contract §8.1): `did` and `text` must be
 * strings when present (400), then on the signed lane `sig` and `nonce` (trimmed, a JSON number
 * nonce refused). The unsigned lane's `from` is passed on as sent: it is checked after the gate.
 */
export function parseMessagePost(body: JsonObject, request: PostTarget): MessagePost {
  const { client, room, idempotencyKey } = request;
  const did = trimmedStringField(body, 'did');
  const rawText = stringField(body, 'text');
  if (did === '')
    return { lane: 'unsigned', command: { client, room, from: body.from, rawText, idempotencyKey } };
  const sig = trimmedStringField(body, 'sig');
  const nonce = trimmedStringField(body, 'nonce');
  return { lane: 'signed', command: { client, room, did, sig, nonce, rawText, idempotencyKey } };
}

/** Who posts where: the client the budgets are charged to, the room, the idempotency key if any. */
export interface PostTarget {
  readonly client: string;
  readonly room: string;
  readonly idempotencyKey?: string;
}
