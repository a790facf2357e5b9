/** Schemas of the watch and stream replies (issue 28), referenced from openapi-components.ts. */

const ROOM_MESSAGE = {
  type: 'object',
  required: ['room', 'message'],
  properties: { room: { type: 'string' }, message: { $ref: '#/components/schemas/Message' } },
};

export const WATCH_REPLY = {
  type: 'object',
  required: ['cursor', 'count', 'more', 'messages', 'resets', 'gaps'],
  properties: {
    cursor: { type: 'string', description: 'Pass back as rooms= (one <room>:<seq>:<generation> per room).' },
    count: { type: 'integer' },
    more: { type: 'boolean', description: 'More messages wait: read again at once.' },
    messages: { type: 'array', items: ROOM_MESSAGE },
    resets: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          room: { type: 'string' },
          generation: { type: 'integer' },
          previous: { type: 'integer' },
        },
      },
    },
    gaps: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          room: { type: 'string' },
          from: { type: 'integer' },
          to: { type: 'integer' },
          reason: { type: 'string', enum: ['ring', 'expired'] },
        },
      },
    },
    wait_held: { type: 'boolean' },
  },
};

export const EVENT_STREAM = {
  type: 'string',
  description:
    'text/event-stream. Events: ready (first; id = the starting cursor), message (data {"room","message"}; ' +
    'id = the cursor after it), gap ({"room","from","to","reason"}), reset ({"room","generation",' +
    '"previous"}), closed ({"reason","detail"}: slow_consumer, stalled or shutdown). Resume with ' +
    'Last-Event-ID.',
};
