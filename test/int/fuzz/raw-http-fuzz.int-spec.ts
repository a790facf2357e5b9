import { AddressInfo } from 'node:net';
import { runRawHttpFuzz } from '../../fuzz/raw-http-fuzz';
import { TestApp } from '../../support/test-app';

/** The CI form of the raw-socket run (issue 24 item 8); `npm run fuzz:raw-http` is the long form. */
const SEED = 20_261_127;
const CASES = 600;

describe('raw-socket HTTP fuzzing: refusals below the routes follow the error doctrine', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await TestApp.start({ requestTimeoutSeconds: 2, headersTimeoutSeconds: 1, fsync: 'none' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.getHttpServer() as { address(): AddressInfo }).address().port}`;
  });
  afterAll(() => t.close());

  it(`answers ${CASES} hostile byte streams with text/plain refusals that start with their status`, async () => {
    const figures = await runRawHttpFuzz({ url, cases: CASES, seed: SEED });
    expect(figures.breaches).toEqual([]);
    // The run reached Node's parser, the routes and the timers alike
    for (const status of [400, 404, 405]) expect(figures.statuses[status]).toBeGreaterThan(10);
    for (const status of [417, 431]) expect(figures.statuses[status]).toBeGreaterThan(0);
    expect(figures.silent).toEqual([]);
  }, 120_000);
});
