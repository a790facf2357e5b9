import { AppConfig } from './app-config';
import { ConfigError } from './load-config';

/**
 * Heap the service needs beyond its memory budgets (room tails, reply cache, note values): projections
 * and indexes at the default caps (5,120 rooms, their listing windows, the notes table's keys), the
 * write model, and room for garbage.
 */
export const HEAP_HEADROOM_MB = 256;

const MIB = 1024 * 1024;

/**
 * The young generation `npm start` gives V8 (`--max-semi-space-size=32`): V8 reserves three
 * semi-spaces, so the heap limit it reports is CHAT_HEAP_MB plus this. With V8's default for a
 * 1 GiB heap (16 MiB semi-spaces) short-lived request garbage was promoted and a node on the nats
 * backend ran 24 full collections in 4 s of cached reads, at 60 % of the file node's rate; with 32
 * MiB, 3 — and equal rates (docs/decisions.md).
 */
export const SEMI_SPACE_MB = 32;
export const YOUNG_GENERATION_MB = 3 * SEMI_SPACE_MB;

/**
 * Heap bytes one byte of note budget can cost: a value held as a two-byte V8 string takes up to twice
 * its UTF-8 length (ASCII text with one emoji), and a checkpoint serialises the whole table into a
 * second copy while the first is live.
 */
export const NOTE_HEAP_FACTOR = 4;

export interface HeapCheck {
  /** Set when the heap cannot hold the budgets: the service must not start. */
  readonly error?: string;
  /** Set when the heap limit is not the one CHAT_HEAP_MB asks for (node started without it). */
  readonly warning?: string;
}

/**
 * Compares V8's heap limit with what the configuration needs. Without a limit V8 sizes the heap from
 * the machine (about 4 GiB here) and lets it grow far past the live data between full collections:
 * with 5,000 full rings read once each, RSS peaked at 1.2 GB although ~400 MB was live. `npm start`
 * therefore runs node with --max-old-space-size=CHAT_HEAP_MB; this check refuses a limit too small for
 * the budgets (an out-of-memory crash later would lose nothing — the log is durable — but would be a
 * worse way to learn it) and warns when node was started without the flag.
 */
export function checkHeap(
  config: Pick<AppConfig, 'hotTailMb' | 'replyCacheMb' | 'noteBytesMb' | 'heapMb'>,
  limitBytes: number,
): HeapCheck {
  const limitMb = Math.floor(limitBytes / MIB);
  const notesMb = config.noteBytesMb * NOTE_HEAP_FACTOR;
  const neededMb = config.hotTailMb + config.replyCacheMb + notesMb + HEAP_HEADROOM_MB;
  if (limitMb < neededMb) {
    return {
      error:
        `heap limit ${limitMb} MiB is below the ${neededMb} MiB the memory budgets need ` +
        `(CHAT_HOT_TAIL_MB=${config.hotTailMb} + CHAT_REPLY_CACHE_MB=${config.replyCacheMb} + ` +
        `${NOTE_HEAP_FACTOR} × CHAT_NOTE_BYTES_MB=${config.noteBytesMb} + ${HEAP_HEADROOM_MB} headroom): ` +
        `raise CHAT_HEAP_MB (npm start passes it to node as --max-old-space-size) or lower the budgets`,
    };
  }
  // V8 rounds the limit it was given and adds the young generation; only a clear difference means the
  // flag is missing or different.
  const expectedMb = config.heapMb + YOUNG_GENERATION_MB;
  if (Math.abs(limitMb - expectedMb) > Math.max(expectedMb * 0.1, YOUNG_GENERATION_MB)) {
    return {
      warning:
        `heap limit is ${limitMb} MiB but CHAT_HEAP_MB=${config.heapMb}: start with npm start, ` +
        `or pass --max-old-space-size=${config.heapMb} --max-semi-space-size=32 to node yourself`,
    };
  }
  return {};
}

/** Throws ConfigError when the heap cannot hold the budgets; returns a warning to log, if any. */
export function assertHeapFits(config: AppConfig, limitBytes: number): string | undefined {
  const check = checkHeap(config, limitBytes);
  if (check.error !== undefined) throw new ConfigError(check.error);
  return check.warning;
}
