import { TestApp } from '../support/test-app';

/** Found by the HTTP fuzzer (issue 11 item 6): Fastify's own 4xx refusals were answered 500. */
describe('a Content-Type Fastify cannot parse, on a route without the body reader', () => {
  let t: TestApp;
  beforeAll(async () => (t = await TestApp.start()));
  afterAll(() => t.close());

  it.each(['OPTIONS', 'PUT', 'DELETE'])(
    '%s with a malformed Content-Type is a 4xx, not a 500',
    async (method) => {
      // Latin-1 bytes and a tab: legal on the wire, but no media type
      const reply = await t.request(method, '/r/room', undefined, { 'content-type': '\u00e6\u00b5\t\u00fe' });
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
      expect(reply.body.startsWith(`${reply.status} `)).toBe(true);
      expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
    },
  );
});
