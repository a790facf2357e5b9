// Validates Kubernetes objects against the API schemas with kubernetes-models (and its Prometheus
// Operator models for ServiceMonitor). An ES module run as a child process by
// test/deploy/kubernetes-manifests.spec.ts: the models ship as ES modules only, which jest's CommonJS
// runtime cannot load. Reads a JSON array of objects on stdin; prints one JSON line per object:
// {"kind", "name", "error"} (error null when the object is valid).
const MODELS = {
  'v1/ConfigMap': 'kubernetes-models/v1/ConfigMap',
  'v1/Service': 'kubernetes-models/v1/Service',
  'v1/Secret': 'kubernetes-models/v1/Secret',
  'apps/v1/StatefulSet': 'kubernetes-models/apps/v1/StatefulSet',
  'policy/v1/PodDisruptionBudget': 'kubernetes-models/policy/v1/PodDisruptionBudget',
  'monitoring.coreos.com/v1/ServiceMonitor':
    '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor',
};

let input = '';
for await (const chunk of process.stdin) input += chunk;
for (const object of JSON.parse(input)) {
  const key = `${object.apiVersion}/${object.kind}`;
  const name = object.metadata?.name ?? null;
  let error = null;
  if (MODELS[key] === undefined) {
    error = `no model for ${key}`;
  } else {
    const model = (await import(MODELS[key]))[object.kind];
    try {
      new model(object).validate();
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
  }
  process.stdout.write(`${JSON.stringify({ kind: object.kind, name, error })}\n`);
}
