/**
 * Signs each checkpoint's log chain value (issue 29): the port the identity module fills with the
 * service key, so src/projections imports no feature. Optional: the replay tool runs without one.
 */
export interface CheckpointSigner {
  readonly did: string;
  /** The canonical base64url Ed25519 signature over the UTF-8 bytes of `payload`. */
  sign(payload: string): string;
}

export const CHECKPOINT_SIGNER = Symbol('CHECKPOINT_SIGNER');
