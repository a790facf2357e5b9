import { HttpMethod, ROUTES } from './route-table';

const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export type Resolution =
  | { readonly kind: 'method_not_allowed'; readonly allow: readonly HttpMethod[] }
  | { readonly kind: 'redirect'; readonly path: string }
  | { readonly kind: 'not_found' };

function methodsFor(path: string): Set<HttpMethod> {
  const methods = new Set<HttpMethod>();
  for (const route of ROUTES) if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
  return methods;
}

/**
 * What to answer when the router found no handler for (method, decoded path), the reference's way:
 * 405 with the union of the methods of every route matching the path; else 307 to the same path with
 * the trailing slash toggled when that one matches; else 404 with the route map.
 */
export function resolveUnmatched(method: string, path: string): Resolution {
  const methods = methodsFor(path);
  if (methods.size > 0 && !methods.has(method as HttpMethod)) {
    return { kind: 'method_not_allowed', allow: METHOD_ORDER.filter((m) => methods.has(m)) };
  }
  if (path !== '/') {
    const toggled = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
    if (toggled.length > 0 && methodsFor(toggled).size > 0) return { kind: 'redirect', path: toggled };
  }
  return { kind: 'not_found' };
}
