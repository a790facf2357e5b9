/**
 * A structural check of an OpenAPI 3.1 document (no validator package is installed): the required
 * top-level fields, path templates whose parameters are declared, operations with unique ids and
 * responses, and every `$ref` resolving inside the document. Returns the problems found (empty = valid).
 */
type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolvePointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

function collectRefs(node: unknown, out: string[]): void {
  if (Array.isArray(node)) node.forEach((item) => collectRefs(item, out));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else collectRefs(value, out);
    }
  }
}

export function openApiProblems(doc: Json): string[] {
  const problems: string[] = [];
  if (doc.openapi !== '3.1.0') problems.push(`openapi is ${String(doc.openapi)}, not 3.1.0`);
  const info = doc.info;
  if (!isObject(info) || typeof info.title !== 'string' || typeof info.version !== 'string') {
    problems.push('info.title and info.version are required strings');
  }
  if (!isObject(doc.paths)) return [...problems, 'paths is required'];
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/')) problems.push(`path ${path} does not start with /`);
    if (!isObject(item)) {
      problems.push(`path ${path} is not an object`);
      continue;
    }
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const method of METHODS.filter((m) => m in item)) {
      const op = item[method];
      const where = `${method.toUpperCase()} ${path}`;
      if (!isObject(op)) {
        problems.push(`${where} is not an object`);
        continue;
      }
      if (typeof op.operationId !== 'string') problems.push(`${where} has no operationId`);
      else if (ids.has(op.operationId)) problems.push(`operationId ${op.operationId} is not unique`);
      else ids.add(op.operationId);
      if (!isObject(op.responses) || Object.keys(op.responses).length === 0)
        problems.push(`${where} has no responses`);
      for (const [status, response] of Object.entries(isObject(op.responses) ? op.responses : {})) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${where} has status key ${status}`);
        const resolved =
          isObject(response) && typeof response.$ref === 'string'
            ? resolvePointer(doc, response.$ref)
            : response;
        if (!isObject(resolved) || typeof resolved.description !== 'string') {
          problems.push(`${where} ${status} has no description`);
        }
      }
      const declared = (Array.isArray(op.parameters) ? op.parameters : [])
        .map((p: unknown) => (isObject(p) && typeof p.$ref === 'string' ? resolvePointer(doc, p.$ref) : p))
        .filter(isObject)
        .filter((p) => p.in === 'path');
      for (const name of templated) {
        const param = declared.find((p) => p.name === name);
        if (param === undefined || param.required !== true)
          problems.push(`${where} does not declare path {${name}}`);
      }
    }
  }
  const refs: string[] = [];
  collectRefs(doc, refs);
  for (const ref of refs)
    if (resolvePointer(doc, ref) === undefined) problems.push(`$ref ${ref} does not resolve`);
  return problems;
}
