/**
 * The exact strings a signed write's signature covers (contract §8.6, spec Authentication), signed
 * and verified as UTF-8. The nonce is the one *as sent*, leading zeros included, and the text or
 * value is the swept one — what gets stored, not what was typed. seq and ts are not covered: they
 * do not exist yet when the client signs.
 *
 * No escaping: a `|` inside the text stays as is. The room, namespace and key cannot contain one
 * (name grammar) and the nonce is digits, so the split is unambiguous up to the text.
 */
export function messageSigningPayload(room: string, nonceAsSent: string, sweptText: string): string {
  return `${room}|${nonceAsSent}|${sweptText}`;
}

export function noteSigningPayload(
  namespace: string,
  key: string,
  nonceAsSent: string,
  sweptValue: string,
): string {
  return `${namespace}|${key}|${nonceAsSent}|${sweptValue}`;
}
