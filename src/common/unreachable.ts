/**
 * The end of an exhaustive switch over a discriminated union: the compiler refuses the call when a
 * member of the union has no case, so a new event type cannot be silently ignored by a fold. Reaching
 * it at run time means a value outside the union got past its decoder.
 */
export function unreachable(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
