import { EnforcedLimits, enforcedLimits } from '../access/enforced-limits';
import { AppConfig } from '../config/app-config';
import { NoteCaps, noteCaps } from '../notes/note-caps';

/** Everything a document is rendered from: the running configuration and the base URL. */
export interface DocContext {
  /** Base URL without a trailing slash, or '' for relative links (contract §15.2). */
  readonly base: string;
  readonly config: AppConfig;
  /** The abuse limits exactly as the guards enforce them. */
  readonly limits: EnforcedLimits;
  readonly notes: NoteCaps;
  /** Idle days before rooms and notes are reclaimed. */
  readonly idleDays: number;
  /** Guaranteed ring size of a room once total room bytes reach their budget. */
  readonly ringFloorBytes: number;
  /** The did:key the service signs room heads with (src/identity/service-key.ts). */
  readonly serviceDid: string;
}

export function docContext(config: AppConfig, base: string, serviceDid: string): DocContext {
  return {
    base,
    config,
    serviceDid,
    limits: enforcedLimits(config),
    notes: noteCaps(config),
    idleDays: Math.round(config.retentionSeconds / 86400),
    ringFloorBytes: Math.floor(config.roomBytesTotal / config.maxRooms),
  };
}

/** An absolute link when the base is known, else the path itself. */
export function link(ctx: DocContext, path: string): string {
  return `${ctx.base}${path}`;
}

/** The base as a document's own URL: the base, or `/` when unknown. */
export function selfUrl(ctx: DocContext): string {
  return ctx.base === '' ? '/' : ctx.base;
}

/** Byte counts as people read them in prose: `10 MiB`, `5 GiB`, `64 KiB`, else bytes. */
export function proseBytes(bytes: number): string {
  const units: Array<[number, string]> = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} bytes`;
}

/** A duration in prose: whole days, hours or minutes when exact, else seconds. */
export function proseSeconds(seconds: number): string {
  const units: Array<[number, string]> = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}
