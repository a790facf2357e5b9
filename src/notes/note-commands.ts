import { BodyConditionFields, QueryConditionFields } from './note-conditions';

/** GET /kv/{ns}/{key}/set/{value}. */
export interface SetNote {
  readonly ns: string;
  readonly key: string;
  /** As routed, before the sweep. */
  readonly rawValue: string;
  readonly conditions: QueryConditionFields;
  /** The client's idempotency key (issue 28), parsed at the edge. */
  readonly idempotencyKey?: string;
}

/** GET /kv/{ns}/{key}/set-signed/{did}/{sig}/{nonce}/{value}. */
export interface SetSignedNote extends SetNote {
  readonly did: string;
  readonly sig: string;
  /** As sent (leading zeros kept): the signature covers this form. */
  readonly nonce: string;
}

/** POST /kv/{ns}/{key} without a did. */
export interface PostNote {
  readonly ns: string;
  readonly key: string;
  /** Swept already: the contract checks the value before the body's `did` (see notes/http). */
  readonly value: string;
  readonly conditions: BodyConditionFields;
  readonly idempotencyKey?: string;
}

/** POST /kv/{ns}/{key} with a did. */
export interface PostSignedNote extends PostNote {
  readonly did: string;
  readonly sig: string;
  readonly nonce: string;
}
