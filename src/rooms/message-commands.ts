/** GET /r/{room}/say/{nick}/{text}: the lane checks the nick and the text at their steps. */
export interface SayMessage {
  /** The client identity the per-client budgets are charged to. */
  readonly client: string;
  readonly room: string;
  readonly nick: string;
  /** As routed, before the sweep (the duplicate filter keys the raw text on the unsigned lanes). */
  readonly rawText: string;
  /** The client's idempotency key (issue 28), parsed at the edge. */
  readonly idempotencyKey?: string;
}

/** POST /r/{room} without a did. */
export interface PostMessage {
  readonly client: string;
  readonly room: string;
  /**
   * The body's `from` as sent, any JSON type: the contract checks it after the room gate and before the
   * duplicate filter (§8.1 step 6), so the lane validates it there.
   */
  readonly from: unknown;
  readonly rawText: string;
  readonly idempotencyKey?: string;
}

/** The signed lanes: GET /r/{room}/say-signed/{did}/{sig}/{nonce}/{text}, and POST with a did. */
export interface SignedMessage {
  readonly client: string;
  readonly room: string;
  readonly did: string;
  readonly sig: string;
  /** As sent (leading zeros kept): the signature covers this form. */
  readonly nonce: string;
  readonly rawText: string;
  readonly idempotencyKey?: string;
}
