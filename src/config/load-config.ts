import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AppConfig } from './app-config';
import { allowedValues, FSYNC_ALIASES } from './allowed-values';
import { KNOBS, Knob } from './config-knobs';

/** Raised at boot with every invalid knob in one message. */
export class ConfigError extends Error {}

function convert(knob: Knob, raw: string): unknown {
  const text = raw.trim();
  switch (knob.kind) {
    case 'int':
      return /^-?\d+$/.test(text) ? Number(text) : text;
    case 'number':
      return text !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    case 'fsync':
      return FSYNC_ALIASES.get(text) ?? text;
    case 'string':
      return text;
  }
}

/**
 * Reads the environment once into a frozen, validated AppConfig. The only reader of process.env is
 * the caller that passes it in (main.ts); tests pass plain objects.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Readonly<AppConfig> {
  const plain: Record<string, unknown> = {};
  for (const knob of KNOBS) {
    const raw = env[knob.env];
    if (raw !== undefined && raw !== '') plain[knob.field] = convert(knob, raw);
  }
  return buildConfig(plain as Partial<AppConfig>);
}

/** Validates overrides on top of the defaults (tests use this directly). */
export function buildConfig(overrides: Partial<AppConfig>): Readonly<AppConfig> {
  const config = Object.assign(new AppConfig(), plainToInstance(AppConfig, overrides));
  const errors = validateSync(config, { forbidUnknownValues: true });
  if (errors.length > 0) {
    const byField = new Map(KNOBS.map((k) => [k.field as string, k]));
    // One clause per variable, what was given and what is allowed, all on one line: the fatal log
    // line and the launcher's refusal (scripts/start.sh) read as one line in a terminal or a journal.
    const clauses = errors.map((e) => {
      const knob = byField.get(e.property);
      const allowed =
        knob === undefined ? Object.values(e.constraints ?? {}).join(', ') : `must be ${allowedValues(knob)}`;
      return `${knob?.env ?? e.property}=${String(e.value)}: ${allowed}`;
    });
    throw new ConfigError(`invalid configuration: ${clauses.join('; ')}`);
  }
  // The reference clamps the stillborn window to whole hours.
  config.stillbornSeconds = Math.floor(config.stillbornSeconds / 3600) * 3600;
  // Floors, not refusals (contract §16): a budget of 0 would refuse everything.
  config.rateRead = Math.max(1, config.rateRead);
  config.rateWrite = Math.max(1, config.rateWrite);
  config.dupeMaxCopies = Math.max(1, config.dupeMaxCopies);
  return Object.freeze(config);
}
