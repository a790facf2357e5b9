import { ServiceMetrics } from '../../src/metrics/service-metrics';
import { TestApp } from '../support/test-app';

/** Issue 16: refusals are counted by kind, a 429 by the bucket that was empty. */
describe('refusal metrics', () => {
  let app: TestApp;
  beforeAll(async () => (app = await TestApp.start({ rateRead: 2, metricsPort: '0' })));
  afterAll(() => app.close());

  it('labels a 429 with its bucket and a domain refusal with its error code', async () => {
    for (let i = 0; i < 3; i++) await app.getPath('/r/quota?format=json');
    expect((await app.getPath('/r/quota?format=json')).status).toBe(429);
    expect((await app.getPath('/r/BAD NAME/say/a/b')).status).toBe(400);
    const text = await app.get(ServiceMetrics).registry.getSingleMetricAsString('chat_refusals_total');
    expect(text).toMatch(/chat_refusals_total\{status="429",kind="rate_read"\} [1-9]/);
    expect(text).toMatch(/chat_refusals_total\{status="400",kind="[a-z_]+"\} 1/);
  });
});
