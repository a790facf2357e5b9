import { BadRequestError } from '../../common/errors/bad-request.error';
import { JsonObject } from './json-object.parser';

/** A body field that must be a string when present (absent reads as empty); never coerced (§8.1). */
export function stringField(body: JsonObject, name: string): string {
  const value = body[name];
  if (value === undefined) return '';
  if (typeof value !== 'string') throw new BadRequestError(`bad ${name}: must be a string`);
  return value;
}

/** `sig` and `nonce` of the signed POST lanes: strings when present (a JSON number nonce is refused), trimmed. */
export function trimmedStringField(body: JsonObject, name: string): string {
  return stringField(body, name).trim();
}
