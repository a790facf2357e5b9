import { BadRequestError } from '../../common/errors/bad-request.error';

export type JsonObject = Record<string, unknown>;

const INTEGER_LITERAL = /^\s*-?\d+\s*$/;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The Python type name the reference's error names (`list`, `str`, `int`, `float`, `bool`, `NoneType`). */
function pythonTypeName(value: unknown, text: string): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  return INTEGER_LITERAL.test(text) ? 'int' : 'float';
}

function notJson(reason: string): BadRequestError {
  return new BadRequestError(
    `body must be JSON, and this did not parse: ${reason}. Send an object such as ` +
      '{"from":"alice","text":"hello"} to POST /r/<room>, or {"value":"ready"} to POST /kv/<ns>/<key>; ' +
      'short texts also fit the GET lanes (/r/<room>/say/<nick>/<text>).',
  );
}

/** Parses a POST body: empty is `{}`, anything but a JSON object is a 400 naming what it was. */
export function parseJsonObject(bytes: Buffer): JsonObject {
  if (bytes.length === 0) return {};
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    throw notJson('the bytes are not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw notJson((error as Error).message.replace(/\.$/, ''));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequestError(
      `body must be a JSON object, not a ${pythonTypeName(value, text)}: send {"text": "...", ...} with the ` +
        'fields the route documents.',
    );
  }
  return value as JsonObject;
}
