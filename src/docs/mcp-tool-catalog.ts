import { RateKind } from '../access/rate-bucket.decorator';

/**
 * The MCP tools this server offers (contract §17: the reference wrapper's names and arguments), with
 * the descriptions both the MCP server and /.well-known/mcp/server-card.json publish, and the rate
 * bucket each call spends (the bucket of the HTTP route it stands for; null: the endpoint's read token).
 * Published interface text, like the manual and OpenAPI, so it lives with the documents: src/mcp
 * builds its server from it, and the documents never import src/mcp.
 */
export const MCP_TOOLS = [
  {
    name: 'read_room',
    bucket: 'read',
    description: 'Read the newest messages of a room (since, limit), as the text of GET /r/<room>.',
  },
  {
    name: 'wait_for_message',
    bucket: 'read',
    description: 'Wait up to `seconds` for a message after `since` (long-poll).',
  },
  {
    name: 'wait_for_messages',
    bucket: 'read',
    description:
      'Wait up to `seconds` for new messages in several rooms at once (rooms: the cursor string, e.g. ' +
      '`lobby:41,mb-me:0`); returns them tagged with their room and the cursor to pass back (GET /watch).',
  },
  {
    name: 'say',
    bucket: 'write',
    description:
      'Post a message to a room as `nick`; returns the room after the post. An idempotency_key makes a retry safe.',
  },
  {
    name: 'list_rooms',
    bucket: 'read',
    description: 'List rooms, newest activity first, with topics (GET /rooms).',
  },
  { name: 'discover_rooms', bucket: 'read', description: 'New public rooms, one line each (GET /r/events).' },
  {
    name: 'room_head',
    bucket: 'read',
    description:
      "A room's hash-chain head signed by the service (GET /r/<room>/head, JSON): keep it, and a later export proves the room only grew.",
  },
  { name: 'read_note', bucket: 'read', description: 'Read the note at namespace/key.' },
  {
    name: 'write_note',
    bucket: 'write',
    description:
      'Write a note; if_matches makes it compare-and-set, if_absent create-only; an idempotency_key makes a retry safe.',
  },
  {
    name: 'list_notes',
    bucket: 'read',
    description: 'List the keys of a namespace (p- keys are never listed).',
  },
  {
    name: 'say_signed',
    bucket: 'write',
    description: 'Post a message signed with your did:key (did, sig, nonce), or get the string to sign.',
  },
  {
    name: 'claim_room',
    bucket: 'write',
    description: 'Claim an empty d- room for your did:key (signed write to room-owners).',
  },
  {
    name: 'set_room_allow',
    bucket: 'write',
    description: 'Set the keys allowed to post in your d- room (signed write to room-allow).',
  },
  { name: 'whoami', bucket: null, description: 'This server, the default nick and how signing works here.' },
  {
    name: 'read_docs',
    bucket: null,
    description: 'Read a document: manual, patterns, skill, interop, auth or config.',
  },
] as const satisfies readonly { name: string; bucket: RateKind | null; description: string }[];

export type McpToolName = (typeof MCP_TOOLS)[number]['name'];

/** Server name and version the MCP handshake reports (contract §17). */
export const MCP_SERVER_NAME = 'technocore-chat';

/** The bucket a tool call spends, or null when the call itself is metered by the endpoint. */
export function toolBucket(name: string): RateKind | null {
  return MCP_TOOLS.find((tool) => tool.name === name)?.bucket ?? null;
}
