import fc from 'fast-check';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { isValidName } from '../../src/common/names';
import { codePointLength, sweep } from '../../src/common/sweep';
import { FIXED_LIMITS } from '../../src/config/app-config';
import { NotesProjection } from '../../src/notes/notes.projection';
import { RoomsProjection } from '../../src/rooms/rooms.projection';
import { TestApp } from '../support/test-app';
import { fuzzRequest, FuzzRequest } from './http-arbitraries';

export interface FuzzOptions {
  readonly requests: number;
  readonly seed: number;
  /** Called every `every` requests with the count so far (the CLI prints progress). */
  readonly progress?: { every: number; report(done: number): void };
}

export interface FuzzFigures {
  readonly requests: number;
  readonly seed: number;
  readonly statuses: Record<number, number>;
  readonly serverErrors: number;
  readonly seconds: number;
  /** Invariant breaches found after the run (files outside the data directory, bad records). */
  readonly breaches: string[];
  /** The first 5xx, if any, as a reproducible request. */
  readonly firstServerError?: { request: FuzzRequest; status: number; body: string };
}

/**
 * The property-based HTTP fuzzer (issue 11 item 6): `requests` requests drawn by fast-check from a
 * fixed seed (paths, query strings, headers and JSON bodies over every route family, with invalid
 * UTF-8, overlong escapes, hostile numbers, deep nesting, duplicate keys, 19/20-digit nonces, every
 * invisible character class, names at and past 48 characters, %2F, %0A and ..), sent through the
 * whole application in-process (Fastify inject: the real module graph, the real log on a temp
 * directory). The property: never a 5xx and never a throw. After the run: no file outside the data
 * directory, and every stored record and note obeys the single-line and name grammar rules.
 */
export async function runHttpFuzz(options: FuzzOptions): Promise<FuzzFigures> {
  const container = mkdtempSync(join(tmpdir(), 'agent-chat-fuzz-'));
  const root = join(container, 'data');
  const t = await TestApp.start(
    // Waits clamped so a fuzzed ?wait= cannot park; a trusted header so identities are fuzzed too;
    // no fsync: durability is the crash test's subject, and an fsync per write would dominate the run.
    { maxWait: 0.02, clientIpHeader: 'x-forwarded-for', bodyDeadlineSeconds: 2, fsync: 'none' },
    undefined,
    root,
  );
  const statuses: Record<number, number> = {};
  let done = 0;
  let firstServerError: FuzzFigures['firstServerError'];
  const started = Date.now();
  try {
    await fc
      .assert(
        fc.asyncProperty(fuzzRequest, async (request) => {
          const response = await t.app.inject({
            method: request.method,
            url: request.url,
            headers: request.headers,
            payload: request.body,
          });
          statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
          done++;
          if (options.progress && done % options.progress.every === 0) options.progress.report(done);
          if (response.statusCode >= 500 && firstServerError === undefined) {
            firstServerError = { request, status: response.statusCode, body: response.body.slice(0, 500) };
          }
          return response.statusCode < 500;
        }),
        { seed: options.seed, numRuns: options.requests, endOnFailure: true },
      )
      .catch(() => undefined); // the figures carry the failure; the caller asserts on them
    const breaches = [...filesOutside(container, root), ...(await storedRecordBreaches(t))];
    return {
      requests: done,
      seed: options.seed,
      statuses,
      serverErrors: Object.entries(statuses)
        .filter(([status]) => Number(status) >= 500)
        .reduce((sum, [, count]) => sum + count, 0),
      seconds: (Date.now() - started) / 1000,
      breaches,
      firstServerError,
    };
  } finally {
    await t.app.close();
    rmSync(container, { recursive: true, force: true });
  }
}

/** Every file the run left in the container other than the data directory and what is under it. */
function filesOutside(container: string, root: string): string[] {
  const breaches: string[] = [];
  for (const entry of readdirSync(container)) {
    if (join(container, entry) !== root) breaches.push(`file outside the data directory: ${entry}`);
  }
  for (const file of walk(root)) {
    const rel = relative(root, file);
    if (rel.startsWith('..') || rel.split('/').some((part) => part === '..' || part === '.'))
      breaches.push(`odd path in the data directory: ${rel}`);
  }
  return breaches;
}

function* walk(dir: string): IterableIterator<string> {
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) yield* walk(full);
    else yield full;
  }
}

/** Records and notes that break the rules writes must enforce (single line, sweep-stable, grammar). */
async function storedRecordBreaches(t: TestApp): Promise<string[]> {
  const breaches: string[] = [];
  for (const meta of t.get(RoomsProjection).liveMetas()) {
    const room = meta.name;
    if (!isValidName(room)) breaches.push(`room name ${JSON.stringify(room)}`);
    // The export is read from the ring file: the bytes on disk, not a cache.
    const exported = await t.getPath(`/r/${room}/export`);
    if (exported.status !== 200) breaches.push(`export of ${room}: ${exported.status}`);
    for (const line of exported.body.split('\n').slice(0, -1)) breaches.push(...recordBreaches(room, line));
    if (exported.body !== '' && !exported.body.endsWith('\n'))
      breaches.push(`export of ${room} ends mid-line`);
  }
  for (const { ns, key, note } of t.get(NotesProjection).entries()) {
    if (!isValidName(ns) || !isValidName(key)) breaches.push(`note name ${JSON.stringify(`${ns}/${key}`)}`);
    const value = note.value;
    if (sweep(value) !== value || value === '' || codePointLength(value) > FIXED_LIMITS.noteChars)
      breaches.push(`unswept note ${ns}/${key}`);
  }
  return breaches;
}

function recordBreaches(room: string, line: string): string[] {
  let record: { seq?: unknown; from?: unknown; text?: unknown };
  try {
    record = JSON.parse(line) as typeof record;
  } catch {
    return [`invalid JSONL in ${room}: ${line.slice(0, 80)}`];
  }
  const { seq, from, text } = record;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) return [`bad seq in ${room}`];
  if (typeof from !== 'string' || (!isValidName(from) && !/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+$/.test(from)))
    return [`bad sender ${JSON.stringify(from)} in ${room} seq ${seq}`];
  if (
    typeof text !== 'string' ||
    text === '' ||
    sweep(text) !== text ||
    codePointLength(text) > FIXED_LIMITS.messageChars
  )
    return [`unswept text in ${room} seq ${seq}`];
  return [];
}
