import { ChildProcess, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { stopProcess } from '../../support/listening-process';
import { freePort } from '../../support/free-port';
import { startPrometheus } from '../../support/prometheus-process';
import { ServiceProcess } from '../../support/service-process';
import { makeTempDir } from '../../support/temp-dir';

// Ports from the kernel (fixed ones collided with another run of this suite on the same machine).
let METRICS_PORT = 0;
let PROMETHEUS_PORT = 0;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks Prometheus's HTTP API for one instant value, or null while it has none. */
async function query(expression: string): Promise<number | null> {
  const url = `http://127.0.0.1:${PROMETHEUS_PORT}/api/v1/query?query=${encodeURIComponent(expression)}`;
  try {
    const reply = (await (await fetch(url)).json()) as {
      data?: { result?: Array<{ value: [number, string] }> };
    };
    const value = reply.data?.result?.[0]?.value?.[1];
    return value === undefined ? null : Number(value);
  } catch {
    return null; // not listening yet
  }
}

/**
 * Issue 16: Prometheus metrics on their own loopback listener, checked with the real tools from
 * Debian's prometheus package: promtool accepts the exposition, and a Prometheus scrapes the service
 * and answers a query for the write counter.
 */
describe('metrics, scraped by a real Prometheus', () => {
  const dir = makeTempDir('agent-chat-metrics');
  let service: ServiceProcess;
  let prometheus: ChildProcess | null = null;
  beforeAll(async () => {
    [METRICS_PORT, PROMETHEUS_PORT] = [await freePort(), await freePort()];
    service = await ServiceProcess.start({
      CHAT_ROOT: join(dir.path, 'data'),
      CHAT_METRICS_PORT: String(METRICS_PORT),
    });
  }, 120_000);
  afterAll(async () => {
    if (prometheus) await stopProcess(prometheus);
    await service?.stop();
    dir.remove();
  });

  it('counts writes, reads and refusals; promtool accepts the output; never on the public port', async () => {
    for (let i = 0; i < 5; i++)
      expect((await fetch(service.url(`/r/metered/say/a/hello-${i}`))).status).toBe(200);
    expect((await fetch(service.url('/kv/ops/plan/set/ship'))).status).toBe(200);
    expect((await fetch(service.url('/r/metered?format=json'))).status).toBe(200);
    expect((await fetch(service.url('/no/such/route'))).status).toBe(404);
    expect((await fetch(service.url('/metrics'))).status).toBe(404);

    const body = await (await fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`)).text();
    expect(body).toContain('chat_writes_total{kind="message"} 5');
    expect(body).toContain('chat_writes_total{kind="note"} 1');
    expect(body).toContain('chat_http_requests_total{method="GET",route="/r/:room",status="200"} 1');
    expect(body).toContain('chat_refusals_total{status="404",kind="http_404"} 2');
    expect(body).toMatch(/^chat_log_fsync_seconds_count [1-9]/m);
    expect(body).toMatch(/^chat_log_batch_records_count [1-9]/m);
    expect(body).toMatch(/^chat_rooms [1-9]/m);
    expect(body).toMatch(/^chat_notes 1$/m);
    expect(body).toMatch(/^chat_projection_lag_records 0$/m);
    expect(body).toMatch(/^process_resident_memory_bytes \d+/m);

    const promtool = spawnSync('promtool', ['check', 'metrics'], { input: body, encoding: 'utf8' });
    expect(promtool.stdout + promtool.stderr).toBe('');
    expect(promtool.status).toBe(0);
  });

  it('a Prometheus started here scrapes it and answers a query for the write counter', async () => {
    prometheus = startPrometheus({
      dir: dir.path,
      targets: [`127.0.0.1:${METRICS_PORT}`],
      port: PROMETHEUS_PORT,
    });
    let writes: number | null = null;
    const deadline = Date.now() + 45_000;
    while (writes !== 5 && Date.now() < deadline) {
      await pause(500);
      writes = await query('sum(chat_writes_total{job="agent-chat",kind="message"})');
    }
    expect(writes).toBe(5);
    expect(await query('up{job="agent-chat"}')).toBe(1);
  }, 60_000);

  it('with CHAT_METRICS_TOKEN a scrape must bring the bearer token', async () => {
    const guardedPort = await freePort();
    const guarded = await ServiceProcess.start({
      CHAT_ROOT: join(dir.path, 'guarded'),
      CHAT_METRICS_PORT: String(guardedPort),
      CHAT_METRICS_TOKEN: 's3cret',
    });
    try {
      const url = `http://127.0.0.1:${guardedPort}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong!' } })).status).toBe(401);
      const ok = await fetch(url, { headers: { authorization: 'Bearer s3cret' } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('chat_http_requests_total');
    } finally {
      await guarded.stop();
    }
  });

  it('publishes the build, requests in flight (a parked long-poll, until answered or abandoned) and latency by status class', async () => {
    const scrape = async (): Promise<string> =>
      (await fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`)).text();
    const inFlight = async (): Promise<number> =>
      Number(/^chat_http_requests_in_flight (\d+)$/m.exec(await scrape())![1]);
    const body = await scrape();
    // Run from the sources there is no dist/build-info.json: the package version, no commit.
    expect(body).toContain(`chat_build_info{version="0.1.0",commit="",node="${process.version}"} 1`);
    expect(await inFlight()).toBe(0);

    expect((await fetch(service.url('/r/inflight/say/a/first'))).status).toBe(200);
    const abandoned = new AbortController();
    const parked = fetch(service.url('/r/inflight?since=1&wait=8'), { signal: abandoned.signal }).catch(
      () => null,
    );
    const answered = fetch(service.url('/r/inflight?since=1&wait=8'));
    const until = async (count: number): Promise<number> => {
      const deadline = Date.now() + 10_000;
      let now = await inFlight();
      while (now !== count && Date.now() < deadline) {
        await pause(100);
        now = await inFlight();
      }
      return now;
    };
    expect(await until(2)).toBe(2);
    abandoned.abort();
    await parked;
    expect(await until(1)).toBe(1); // the client went away: no reply was sent, the count still drops
    expect((await fetch(service.url('/r/inflight/say/a/second'))).status).toBe(200);
    expect((await answered).status).toBe(200);
    expect(await until(0)).toBe(0);

    const after = await scrape();
    expect(after).toMatch(
      /^chat_http_request_duration_seconds_count\{method="GET",route="\/r\/:room\/say\/:nick\/\*",status_class="2xx"\} [1-9]/m,
    );
    expect(after).toMatch(
      /^chat_http_request_duration_seconds_count\{method="GET",route="unmatched",status_class="4xx"\} [1-9]/m,
    );
  }, 60_000);
});
