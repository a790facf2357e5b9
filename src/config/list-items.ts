/** The items of a comma-separated knob (CHAT_CORS_ORIGINS, CHAT_NATS_URL): trimmed, blanks dropped. */
export function listItems(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
