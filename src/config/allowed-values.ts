import { getMetadataStorage } from 'class-validator';
import { ACCEPTS_RULE } from './accepts';
import { AppConfig } from './app-config';
import { Knob } from './config-knobs';

/** What CHAT_FSYNC accepts, as the README documents it (the reference's `0` disables). */
export const FSYNC_ALIASES: ReadonlyMap<string, string> = new Map([
  ['1', 'always'],
  ['0', 'none'],
]);

const KIND_NOUN: Record<Knob['kind'], string> = {
  int: 'a whole number',
  number: 'a number',
  string: 'text',
  fsync: 'a policy',
};

/**
 * One clause saying what a knob accepts (`a whole number of at least 1`), read from AppConfig's own
 * validation decorators so the message can never drift from the rule that refused the value.
 */
export function allowedValues(knob: Knob): string {
  const rules = getMetadataStorage()
    .getTargetValidationMetadatas(AppConfig, '', true, false)
    .filter((meta) => meta.propertyName === knob.field);
  const constraint = (name: string): unknown => rules.find((meta) => meta.name === name)?.constraints?.[0];
  const described = constraint(ACCEPTS_RULE) as string | undefined;
  if (described !== undefined) return described;
  const pattern = constraint('matches') as RegExp | undefined;
  if (pattern !== undefined) return `text matching ${String(pattern)}`;
  const choices = constraint('isIn') as readonly string[] | undefined;
  if (choices !== undefined) return `one of ${choices.join(', ')}${aliasNote(knob)}`;
  const min = constraint('min') as number | undefined;
  const max = constraint('max') as number | undefined;
  const noun = KIND_NOUN[knob.kind];
  if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
  if (min !== undefined) return `${noun} of at least ${min}`;
  if (max !== undefined) return `${noun} of at most ${max}`;
  return noun;
}

function aliasNote(knob: Knob): string {
  if (knob.kind !== 'fsync') return '';
  const aliases = [...FSYNC_ALIASES].map(([alias, policy]) => `${alias} for ${policy}`);
  return ` (or ${aliases.join(', ')})`;
}
