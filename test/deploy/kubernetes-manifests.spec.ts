import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { checkHeap, YOUNG_GENERATION_MB } from '../../src/config/heap-budget';
import { loadConfig } from '../../src/config/load-config';

const ROOT = join(__dirname, '..', '..');
const DIR = join(ROOT, 'deploy', 'kubernetes');
const MIB = 1024 * 1024;
/** Resident memory outside the V8 heap a node needs: code, buffers, verification threads (~20 MB each). */
const NATIVE_MB = 128;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kubernetes objects, checked field by field below
type K8sObject = any;

const objects: K8sObject[] = readdirSync(DIR)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((doc) => doc.toJS()));
const find = (kind: string, name: string): K8sObject => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (found === undefined) throw new Error(`deploy/kubernetes has no ${kind} ${name}`);
  return found;
};

function validate(list: readonly K8sObject[]): { kind: string; name: string; error: string | null }[] {
  const out = execFileSync(process.execPath, [join(__dirname, 'support', 'validate-kubernetes.mjs')], {
    cwd: ROOT,
    input: JSON.stringify(list),
    encoding: 'utf8',
  });
  return out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

const matches = (selector: Record<string, string>, labels: Record<string, string>): boolean =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

/** The Kubernetes manifests in deploy/kubernetes/, object by object, against the API schemas and the service. */
describe('Kubernetes manifests (deploy/kubernetes)', () => {
  const statefulSet = find('StatefulSet', 'agent-chat');
  const pod = statefulSet.spec.template.spec;
  const container = pod.containers[0];
  const config = find('ConfigMap', 'agent-chat').data as Record<string, string>;

  it('every object is valid against its schema (kubernetes-models), and an invalid one is refused', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'ConfigMap/agent-chat',
      'PodDisruptionBudget/agent-chat',
      'Service/agent-chat',
      'Service/agent-chat-nodes',
      'ServiceMonitor/agent-chat',
      'StatefulSet/agent-chat',
    ]);
    expect(validate(objects).filter((result) => result.error !== null)).toEqual([]);
    const broken = structuredClone(statefulSet);
    broken.spec.template.spec.containers[0].livenessProbe.httpGet.path = 42;
    expect(validate([broken])[0].error).toMatch(/livenessProbe\/httpGet\/path must be string/);
  });

  it('probes liveness on /healthz and readiness on /readyz, on the port the image listens on', () => {
    const ports = Object.fromEntries(container.ports.map((p: K8sObject) => [p.name, p.containerPort]));
    expect(ports.http).toBe(8080);
    expect(readFileSync(join(ROOT, 'deploy', 'Containerfile'), 'utf8')).toMatch(/PORT=8080/);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(ports.metrics).toBe(Number(config.CHAT_METRICS_PORT));
  });

  it('configures a node the service accepts, with a memory request that holds the heap budget', () => {
    const env = { ...config, CHAT_METRICS_TOKEN: 'from-the-secret' };
    expect(container.env.map((e: K8sObject) => e.name)).toEqual(['CHAT_METRICS_TOKEN']);
    const node = loadConfig(env);
    expect(node.logBackend).toBe('nats');
    expect(node.natsReplicas).toBe(3);
    const heapMb = Number(config.CHAT_HEAP_MB);
    expect(checkHeap(node, (heapMb + YOUNG_GENERATION_MB) * MIB)).toEqual({});
    const mebibytes = (quantity: string): number => {
      const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
      if (match === null) throw new Error(`unexpected quantity ${quantity}`);
      return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
    };
    const request = mebibytes(container.resources.requests.memory);
    expect(request).toBeGreaterThanOrEqual(heapMb + YOUNG_GENERATION_MB + NATIVE_MB);
    expect(mebibytes(container.resources.limits.memory)).toBeGreaterThan(request);
  });

  it('gives each node its own volume at CHAT_ROOT, runs as the image user without privileges', () => {
    const claim = statefulSet.spec.volumeClaimTemplates[0];
    const mount = container.volumeMounts.find((m: K8sObject) => m.name === claim.metadata.name);
    expect(mount.mountPath).toBe('/var/lib/agent-chat');
    expect(readFileSync(join(ROOT, 'deploy', 'Containerfile'), 'utf8')).toMatch(
      /CHAT_ROOT=\/var\/lib\/agent-chat/,
    );
    expect(claim.spec.accessModes).toEqual(['ReadWriteOnce']);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, fsGroup: 1000 });
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('wires the Services, the disruption budget and the ServiceMonitor to the nodes', () => {
    const podLabels = statefulSet.spec.template.metadata.labels;
    expect(matches(statefulSet.spec.selector.matchLabels, podLabels)).toBe(true);
    const nodes = find('Service', statefulSet.spec.serviceName);
    expect(nodes.spec.clusterIP).toBe('None');
    for (const service of [find('Service', 'agent-chat'), nodes])
      expect(matches(service.spec.selector, podLabels)).toBe(true);
    const pdb = find('PodDisruptionBudget', 'agent-chat');
    expect(matches(pdb.spec.selector.matchLabels, podLabels)).toBe(true);
    expect(pdb.spec.maxUnavailable).toBeLessThan(statefulSet.spec.replicas);
    const monitor = find('ServiceMonitor', 'agent-chat');
    expect(matches(monitor.spec.selector.matchLabels, nodes.metadata.labels)).toBe(true);
    expect(matches(monitor.spec.selector.matchLabels, find('Service', 'agent-chat').metadata.labels)).toBe(
      false,
    );
    expect(nodes.spec.ports.map((p: K8sObject) => p.name)).toContain(monitor.spec.endpoints[0].port);
    // The listener is off loopback, so scrapes carry the token the nodes get from the same Secret.
    const token = container.env.find((e: K8sObject) => e.name === 'CHAT_METRICS_TOKEN').valueFrom
      .secretKeyRef;
    expect(monitor.spec.endpoints[0].authorization.credentials).toEqual(token);
  });
});
