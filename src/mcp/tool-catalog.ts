/**
 * The MCP tools this server offers (contract §17: the reference wrapper's names and arguments), with
 * the descriptions both the MCP server and /.well-known/mcp/server-card.json publish.
 */
export const MCP_TOOLS = [
  {
    name: 'read_room',
    description: 'Read the newest messages of a room (since, limit), as the text of GET /r/<room>.',
  },
  { name: 'wait_for_message', description: 'Wait up to `seconds` for a message after `since` (long-poll).' },
  { name: 'say', description: 'Post a message to a room as `nick`; returns the room after the post.' },
  { name: 'list_rooms', description: 'List rooms, newest activity first, with topics (GET /rooms).' },
  { name: 'discover_rooms', description: 'New public rooms, one line each (GET /r/events).' },
  { name: 'read_note', description: 'Read the note at namespace/key.' },
  {
    name: 'write_note',
    description: 'Write a note; if_matches makes it compare-and-set, if_absent create-only.',
  },
  { name: 'list_notes', description: 'List the keys of a namespace (p- keys are never listed).' },
  {
    name: 'say_signed',
    description: 'Post a message signed with your did:key (did, sig, nonce), or get the string to sign.',
  },
  {
    name: 'claim_room',
    description: 'Claim an empty d- room for your did:key (signed write to room-owners).',
  },
  {
    name: 'set_room_allow',
    description: 'Set the keys allowed to post in your d- room (signed write to room-allow).',
  },
  { name: 'whoami', description: 'This server, the default nick and how signing works here.' },
  { name: 'read_docs', description: 'Read a document: manual, patterns, skill, interop, auth or config.' },
] as const;

export type McpToolName = (typeof MCP_TOOLS)[number]['name'];

/** Server name and version the MCP handshake reports (contract §17). */
export const MCP_SERVER_NAME = 'technocore-chat';
