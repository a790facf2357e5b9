import { ValidateBy } from 'class-validator';

/** The name under which class-validator stores an `@Accepts` rule (allowed-values.ts reads it back). */
export const ACCEPTS_RULE = 'accepts';

/**
 * A rule class-validator has no decorator for, with the clause the configuration error prints for it
 * (`CHAT_PUBLIC_URL=x: must be an absolute http(s) URL …`): the test and its description sit together,
 * so the message names exactly what the test allows.
 */
export function Accepts(description: string, test: (value: string) => boolean): PropertyDecorator {
  return ValidateBy({
    name: ACCEPTS_RULE,
    constraints: [description],
    validator: { validate: (value: unknown) => typeof value === 'string' && test(value) },
  });
}
