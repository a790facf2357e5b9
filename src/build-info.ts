import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Which build is running: the package version and the git commit dist/ was built from. */
export interface BuildInfo {
  readonly version: string | null;
  /** `<sha>`, `<sha>-dirty` (inputs changed since that commit), or null (built outside a checkout). */
  readonly commit: string | null;
}

/**
 * Read from dist/build-info.json, which scripts/ensure-built.js writes beside the build. Run from the
 * sources (tests), there is none: the version comes from package.json and the commit is unknown.
 */
export function readBuildInfo(dir: string = __dirname): BuildInfo {
  const stamped = readJson(join(dir, 'build-info.json'));
  if (stamped !== null) {
    return { version: stringOrNull(stamped.version), commit: stringOrNull(stamped.commit) };
  }
  return { version: stringOrNull(readJson(join(dir, '..', 'package.json'))?.version), commit: null };
}

function readJson(path: string): Record<string, unknown> | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
