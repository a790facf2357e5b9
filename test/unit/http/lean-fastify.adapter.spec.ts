import { FastifyAdapter } from '@nestjs/platform-fastify';
import { LeanFastifyAdapter } from '../../../src/http/lean-fastify.adapter';

// LeanFastifyAdapter relies on three behaviours of Nest's FastifyAdapter that are not public API.
// Each test pins one; a Nest upgrade that changes it fails here instead of in production.
describe('LeanFastifyAdapter and the Nest internals it relies on', () => {
  const adapters: FastifyAdapter[] = [];
  afterEach(async () => {
    for (const adapter of adapters.splice(0)) await adapter.close();
  });
  const make = <A extends FastifyAdapter>(adapter: A): A => {
    adapters.push(adapter);
    return adapter;
  };

  it("Nest's own init registers @fastify/middie (what the lean adapter skips)", async () => {
    const plain = make(new FastifyAdapter());
    await plain.init();
    await plain.getInstance().ready();
    expect(plain.getInstance().hasDecorator('use')).toBe(true);
  });

  it('the lean adapter registers no middie, so no onRequest hook runs for it', async () => {
    const lean = make(new LeanFastifyAdapter());
    await lean.init();
    await lean.getInstance().ready();
    expect(lean.getInstance().hasDecorator('use')).toBe(false);
  });

  it('middleware added later still works: createMiddlewareFactory registers middie on demand', async () => {
    const lean = make(new LeanFastifyAdapter());
    await lean.init();
    const register = await lean.createMiddlewareFactory(0 /* RequestMethod.GET */);
    register('/mw', (_req: unknown, res: { setHeader(n: string, v: string): void }, next: () => void) => {
      res.setHeader('x-mw', 'ran');
      next();
    });
    lean.getInstance().get('/mw', async () => 'ok');
    const reply = await lean.getInstance().inject({ method: 'GET', url: '/mw' });
    expect(reply.headers['x-mw']).toBe('ran');
  });

  it('app.use() before init is queued in pendingMiddlewares, and then init runs as usual', async () => {
    const lean = make(new LeanFastifyAdapter());
    lean.use((_req: unknown, res: { setHeader(n: string, v: string): void }, next: () => void) => {
      res.setHeader('x-early', 'ran');
      next();
    });
    expect((lean as unknown as { pendingMiddlewares: unknown[] }).pendingMiddlewares).toHaveLength(1);
    await lean.init();
    lean.getInstance().get('/early', async () => 'ok');
    const reply = await lean.getInstance().inject({ method: 'GET', url: '/early' });
    expect(reply.headers['x-early']).toBe('ran');
  });
});
