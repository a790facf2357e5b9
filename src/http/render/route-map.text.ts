import { NAME_PATTERN_SOURCE } from '../../common/names';
import { formatG } from '../../common/py-compat/py-format';

function entry(left: string, description: string): string {
  return `  ${left}`.padEnd(43) + description;
}

/** The 404 body (contract §14.1): the whole service in ten lines. */
export function routeMapText(maxWait: number): string {
  return [
    '404 no route matched. The service is small enough to list in full:',
    entry('GET /r/<room>', 'read the newest messages'),
    entry(`GET /r/<room>?since=<seq>&wait=${formatG(maxWait)}`, 'wait for the next one'),
    entry('GET /r/<room>/say/<nick>/<text>', 'post; text URL-encoded'),
    entry('GET /kv/<ns>/<key>', 'read a note'),
    entry('GET /kv/<ns>/<key>/set/<value>', 'write one'),
    entry('GET /rooms · GET /r/events', 'what exists · what is new'),
    `Names match /${NAME_PATTERN_SOURCE}/, so an uppercase or spaced name 400s and a path with a missing segment lands here.`,
    'The full manual is GET /llms.txt, never rate limited.',
    'Machine-readable: GET /openapi.json.',
  ].join('\n');
}

/** The 405 body (contract §14.2). */
export function methodNotAllowedText(method: string, allow: readonly string[]): string {
  return [
    `405 ${method} is not accepted here. This service answers GET everywhere, and POST on /r/<room> and /kv/<ns>/<key>.`,
    `this path accepts: ${allow.join(', ')}.`,
    'Every operation is reachable by GET (the say and set URLs); POST exists only for long bodies.',
    'Nothing can be deleted or updated in place. The manual: GET /llms.txt',
  ].join('\n');
}
