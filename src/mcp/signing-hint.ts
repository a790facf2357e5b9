/**
 * What a signed tool answers when it is called without a signature (contract §17): the exact string
 * to sign, as the last line, like the 403 a wrong signature gets. The suggested nonce is the caller's
 * to change; it only has to exceed the one the lane checks.
 */
export function signingHint(tool: string, canonical: string, nonce: string): string {
  return (
    `${tool}: nothing was written. Sign this exact string (UTF-8, Ed25519, your did:key) and call ${tool} ` +
    `again with did, sig (unpadded base64url, 86 characters) and nonce ${nonce} (or any larger nonce, ` +
    `changing it in the string too):\n${canonical}`
  );
}

/** Whether did, sig and nonce came all together (true), all absent (false), or mixed (a 400). */
export function signatureParts(
  did?: string,
  sig?: string,
  nonce?: string | number,
): 'all' | 'none' | 'did' | 'mixed' {
  const present = [did, sig, nonce].filter((part) => part !== undefined && part !== '').length;
  if (present === 3) return 'all';
  if (present === 0) return 'none';
  if (present === 1 && did !== undefined && did !== '') return 'did';
  return 'mixed';
}
