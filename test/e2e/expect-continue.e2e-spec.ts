import { TestApp } from '../support/test-app';

/** Fastify inject (no real socket) must not trip over the deferred 100-continue. */
describe('Expect: 100-continue through inject', () => {
  it('a POST carrying the header is served normally', async () => {
    const app = await TestApp.start();
    const reply = await app.request('POST', '/r/cont?format=json', '{"from":"a","text":"hi"}', {
      'content-type': 'application/json',
      expect: '100-continue',
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('"text":"hi"');
    await app.close();
  });
});
