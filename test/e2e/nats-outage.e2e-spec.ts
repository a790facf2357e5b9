import { NatsServerProcess } from '../support/nats-server-process';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';

// A private nats-server (i14b's port range 21400–21499) that the test can kill and restart.
const NATS_PORT = 21410;

async function post(node: ServiceProcess, text: string): Promise<Response> {
  return fetch(node.url('/r/outage?format=json'), {
    method: 'POST',
    body: JSON.stringify({ from: 'outage', text }),
  });
}

describe('NATS lost while the service runs (private nats-server, kill -9 and restart)', () => {
  const store = makeTempDir('nats-outage-store');
  const root = makeTempDir('nats-outage-root');
  const nats = new NatsServerProcess({ name: 'i14b-outage', port: NATS_PORT, storeDir: store.path });
  let service: ServiceProcess | undefined;

  afterAll(async () => {
    await service?.stop();
    await nats.kill9();
    store.remove();
    root.remove();
  });

  it('answers writes 503 with a clear body within the deadline, keeps serving reads, reports it on /readyz, and resumes', async () => {
    await nats.start();
    service = await ServiceProcess.start({
      CHAT_ROOT: root.path,
      CHAT_LOG_BACKEND: 'nats',
      CHAT_NATS_URL: nats.url,
      CHAT_NATS_STREAM: 'outage',
      CHAT_NATS_TIMEOUT_MS: '2000',
    });
    for (let i = 1; i <= 3; i++) expect((await post(service, `before the outage ${i}`)).status).toBe(200);

    await nats.kill9();
    const started = Date.now();
    const refused = await post(service, 'during the outage');
    expect(refused.status).toBe(503);
    expect(await refused.text()).toMatch(/event log is not accepting writes: NATS connection lost/);
    expect(Date.now() - started).toBeLessThan(8000);

    const read = (await (await fetch(service.url('/r/outage?format=json'))).json()) as {
      messages: Array<{ seq: number }>;
    };
    expect(read.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    // Readiness, not liveness: restarting the node would not bring NATS back (issue 27).
    expect((await fetch(service.url('/healthz'))).status).toBe(200);
    const ready = await fetch(service.url('/readyz'));
    expect(ready.status).toBe(503);
    expect(await ready.text()).toContain('NATS connection lost');

    await nats.start();
    const resumedBy = Date.now() + 20_000;
    let after: Response;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await post(service, `after the outage ${Date.now()}`);
    } while (after.status !== 200 && Date.now() < resumedBy);
    expect(after.status).toBe(200);
    const exported = (await (await fetch(service.url('/r/outage/export'))).text()).trimEnd().split('\n');
    const seqs = exported.map((line) => (JSON.parse(line) as { seq: number }).seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1)); // no gap, no duplicate
    expect(seqs.length).toBeGreaterThanOrEqual(4);
    expect((await fetch(service.url('/healthz'))).status).toBe(200);
    expect((await fetch(service.url('/readyz'))).status).toBe(200);
  });
});
