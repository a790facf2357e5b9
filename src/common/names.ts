import { BadRequestError } from './errors/bad-request.error';
import { pyRepr } from './py-compat/py-repr';

/** Rooms, nicknames, note namespaces and keys all follow one grammar (spec: Name grammar). */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,47}$/;
export const NAME_PATTERN_SOURCE = '^[a-z0-9][a-z0-9_-]{0,47}$';

export function isValidName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

/** Throws the contract's 400 (§3.1) naming the bad name and the usual causes. */
export function assertName(name: string): void {
  if (!NAME_PATTERN.test(name)) throw badName(name);
}

export function badName(name: string): BadRequestError {
  return new BadRequestError(
    `bad name ${pyRepr(name)}: names must match ${NAME_PATTERN_SOURCE} (1-48 characters: lowercase ` +
      `a-z, digits, '_' and '-', starting with a letter or digit). Usual causes: uppercase letters, a ` +
      `space, a dot or slash, an empty path segment, or more than 48 characters. Only the <text> and ` +
      `<value> segments are free-form.`,
  );
}

export type RoomClass = 'p' | 'mb' | 'd' | 'e';
const CLASSES: readonly RoomClass[] = ['p', 'mb', 'd', 'e'];
const DASH = 0x2d;

/** The class whose name and a dash start `name` at `start`, or null (the segment is no class). */
function classAt(name: string, start: number): RoomClass | null {
  for (const cls of CLASSES) {
    if (name.charCodeAt(start + cls.length) === DASH && name.startsWith(cls, start)) return cls;
  }
  return null;
}

/**
 * Classes compose by prefix (§3.2): every dash-separated segment except the last is examined from
 * the left while it is a class name. `mb-p-x` → {mb, p}; `x-mb-y` → {}; `e-p` → {e}.
 */
export function nameClasses(name: string): ReadonlySet<RoomClass> {
  const classes = new Set<RoomClass>();
  for (let start = 0, cls = classAt(name, 0); cls !== null; cls = classAt(name, start)) {
    classes.add(cls);
    start += cls.length + 1;
  }
  return classes;
}

/** nameClasses(name).has(cls) without building the set: asked several times on every request. */
export function hasClass(name: string, cls: RoomClass): boolean {
  for (let start = 0, at = classAt(name, 0); at !== null; at = classAt(name, start)) {
    if (at === cls) return true;
    start += at.length + 1;
  }
  return false;
}
