/** Schema of a signed room head (GET /r/{room}/head, issue 29), referenced from openapi-components.ts. */

const HEX_HASH = { type: 'string', pattern: '^[0-9a-f]{64}$' };

export const ROOM_HEAD = {
  type: 'object',
  description:
    'Signed by service_did (Ed25519) over the UTF-8 lines "agent-chat room head v1", room, generation, ' +
    'first_seq, last_seq, anchor, head, time, service_did, each ending in a newline (docs/operations.md).',
  required: [
    'room',
    'generation',
    'first_seq',
    'last_seq',
    'anchor',
    'head',
    'time',
    'service_did',
    'signature',
  ],
  properties: {
    room: { type: 'string' },
    generation: { type: 'integer', minimum: 1 },
    first_seq: { type: 'integer', minimum: 0, description: 'Oldest seq the ring holds (0: none).' },
    last_seq: { type: 'integer', minimum: 0 },
    anchor: { ...HEX_HASH, description: 'Chain hash just before the line first_seq.' },
    head: { ...HEX_HASH, description: 'Chain hash after the line last_seq: what replicas compare.' },
    time: { type: 'string', format: 'date-time' },
    service_did: { type: 'string', pattern: '^did:key:z6Mk' },
    signature: { type: 'string', pattern: '^[A-Za-z0-9_-]{85}[AQgw]$' },
  },
};
