import { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../support/free-port';
import { stopProcess } from '../support/listening-process';
import { deleteStream, NATS_URL, uniqueStreamName } from '../support/nats-stream';
import { startPrometheus } from '../support/prometheus-process';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';

const DASHBOARD = join(__dirname, '..', '..', 'deploy', 'grafana', 'agent-chat.json');
const LOAD_MS = 12_000;

interface Target {
  readonly refId: string;
  readonly expr: string;
}
interface Panel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly gridPos: { h: number; w: number; x: number; y: number };
  readonly targets?: Target[];
}

/** Grafana's variables as an operator viewing every node of the `agent-chat` job would set them. */
function substitute(expr: string): string {
  return expr
    .replaceAll('$__rate_interval', '1m')
    .replaceAll('$job', 'agent-chat')
    .replaceAll('$instance', '.*');
}

/** A mixed load on one node: writes, reads, notes, long-polls and some 404s (the errors panel). */
async function load(service: ServiceProcess, until: number, worker: number): Promise<void> {
  for (let i = 0; Date.now() < until; i++) {
    const room = `dash-${worker}-${i % 4}`;
    const paths = [
      `/r/${room}/say/w${worker}/message%20${i}`,
      `/r/${room}?since=0&format=json`,
      `/r/${room}?since=0`,
      `/kv/dash${worker}/key${i % 3}/set/value${i}`,
      `/kv/dash${worker}/key${i % 3}`,
      `/no/such/route/${i}`,
      `/r/${room}?since=${i + 100}&wait=1`,
    ];
    await Promise.all(paths.map((path) => fetch(service.url(path)).then((r) => r.arrayBuffer())));
  }
}

/**
 * The Grafana dashboard in deploy/grafana: every panel's PromQL runs against a real Prometheus that
 * scraped two nodes under load (one on the file log, one on NATS, so the log and NATS panels both
 * have their source); an invalid query or a panel without data fails.
 */
describe('Grafana dashboard (deploy/grafana/agent-chat.json)', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8'));
  const panels = dashboard.panels as Panel[];
  const dir = makeTempDir('agent-chat-dashboard');
  const stream = uniqueStreamName('dashboard');
  const services: ServiceProcess[] = [];
  let prometheus: ChildProcess | null = null;
  let prometheusUrl = '';

  const query = async (expr: string): Promise<{ status: string; error?: string; values: number[] }> => {
    const reply = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await reply.json()) as {
      status: string;
      error?: string;
      data?: { result: { value: [number, string] }[] };
    };
    return {
      status: body.status,
      error: body.error,
      values: (body.data?.result ?? []).map((r) => Number(r.value[1])),
    };
  };

  beforeAll(async () => {
    const metricsPorts = [await freePort(), await freePort()];
    // Checkpoints every 2 s, so the checkpoint panels have some within the load.
    const common = { CHAT_CHECKPOINT_SECONDS: '2', CHAT_METRICS_HOST: '127.0.0.1' };
    services.push(
      ...(await ServiceProcess.startAll([
        () =>
          ServiceProcess.start({
            ...common,
            CHAT_ROOT: join(dir.path, 'file'),
            CHAT_METRICS_PORT: String(metricsPorts[0]),
          }),
        () =>
          ServiceProcess.start({
            ...common,
            CHAT_ROOT: join(dir.path, 'nats'),
            CHAT_METRICS_PORT: String(metricsPorts[1]),
            CHAT_LOG_BACKEND: 'nats',
            CHAT_NATS_URL: NATS_URL,
            CHAT_NATS_STREAM: stream,
          }),
      ])),
    );
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = startPrometheus({ dir: dir.path, targets: metricsPorts.map((p) => `127.0.0.1:${p}`), port });
    const until = Date.now() + LOAD_MS;
    await Promise.all(services.flatMap((service) => [0, 1, 2].map((worker) => load(service, until, worker))));
    // Both nodes scraped since the load began, and once more after it: the rates cover it.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const up = await query('count(up{job="agent-chat"} == 1)').catch(() => null);
      if (up?.values[0] === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }, 300_000);

  afterAll(async () => {
    if (prometheus) await stopProcess(prometheus);
    for (const service of services) await service.stop();
    await deleteStream(stream);
    dir.remove();
  }, 60_000);

  it('is a well-formed dashboard: unique ids, panels inside the 24-column grid, a query per panel', () => {
    expect(dashboard.uid).toBe('agent-chat');
    const ids = panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of panels) {
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      if (panel.type === 'row') continue;
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const target of panel.targets!) expect(target.expr).toMatch(/\S/);
    }
    const variables = (dashboard.templating.list as { name: string }[]).map((v) => v.name);
    expect(variables).toEqual(['datasource', 'job', 'instance']);
  });

  it('every panel query is valid PromQL and has data from the nodes under load', async () => {
    const failures: string[] = [];
    for (const panel of panels.filter((p) => p.type !== 'row')) {
      for (const target of panel.targets!) {
        const result = await query(substitute(target.expr));
        if (result.status !== 'success') failures.push(`${panel.title} ${target.refId}: ${result.error}`);
        else if (!result.values.some(Number.isFinite))
          failures.push(`${panel.title} ${target.refId}: no data`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it("the variables' queries find the job and both nodes", async () => {
    const values = async (label: string, match: string): Promise<string[]> => {
      const url = `${prometheusUrl}/api/v1/label/${label}/values?match[]=${encodeURIComponent(match)}`;
      return ((await (await fetch(url)).json()) as { data: string[] }).data;
    };
    expect(await values('job', 'chat_http_requests_total')).toEqual(['agent-chat']);
    expect(await values('instance', 'chat_http_requests_total{job=~"agent-chat"}')).toHaveLength(2);
  });
});
