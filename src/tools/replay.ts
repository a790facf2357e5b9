import { NestFactory } from '@nestjs/core';
import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { buildConfig } from '../config/load-config';
import { decodeEvent } from '../events/event-codec';
import { SegmentedEventLog } from '../log/file/segmented-event-log';
import { Checkpoint, CheckpointStore } from '../projections/checkpoint-store';
import { EVENT_LOG } from '../log/log.tokens';
import { EventLog } from '../log/event-log';
import { LogPoint, reached, UsageError } from './cli-args';
import { ReplayModule } from './replay.module';
import { checkBatchBoundary } from './replay-cut';
import { ProjectionRunner } from '../projections/projection-runner';
import { DataDirLock } from '../storage/data-dir-lock';
import { DEFAULT_SERVICE_KEY_FILE } from '../identity/service-key-file';

export interface ReplayRequest {
  readonly source: string;
  readonly target: string;
  readonly until?: LogPoint;
}

export interface ReplayReport {
  readonly fromOffset: number;
  readonly untilOffset: number;
  readonly events: number;
  readonly base: 'log start' | 'checkpoint';
}

const quiet = { log: () => undefined, warn: (message: string) => process.stderr.write(`${message}\n`) };
const BATCH = 2048;

/**
 * Rebuilds every projection of `source` into the empty directory `target`, from the log alone when it
 * starts at offset 0, otherwise from the oldest checkpoint the log still covers (what older log was
 * compacted into), applying events up to `until` (exclusive). The target receives the applied log
 * records, the ring files and a checkpoint: it is a data directory the service can start on. The
 * source is only read (its log is opened read-only), so this is safe while the service runs.
 */
export async function replay(request: ReplayRequest): Promise<ReplayReport> {
  if (existsSync(request.target) && readdirSync(request.target).length > 0) {
    throw new UsageError(`${request.target} is not empty: replay writes into a fresh directory`);
  }
  // The target is written like a live data directory: no service may start on it meanwhile.
  const lock = await DataDirLock.acquire(request.target);
  // The copy keeps the service's identity: its checkpoints are signed with the same key.
  copyServiceKey(request.source, request.target);
  const source = new SegmentedEventLog({ dir: join(request.source, 'log'), readOnly: true, logger: quiet });
  await source.open();
  try {
    const base = await chooseBase(request, source);
    if (request.until !== undefined && 'offset' in request.until) {
      await checkBatchBoundary(source, base?.offset ?? 0, request.until.offset);
    }
    if (base !== null) await copyBase(request.source, request.target, base);
    const log = new SegmentedEventLog({
      dir: join(request.target, 'log'),
      fsync: 'none',
      initialOffset: base?.offset ?? 0,
      logger: quiet,
    });
    await log.open();
    const config = buildConfig({
      root: request.target,
      logLevel: 'warn',
      logRetention: 'keep',
      checkpointEvents: 1e9,
    });
    const app = await NestFactory.createApplicationContext(ReplayModule.forLog(config, log), {
      logger: false,
    });
    await app.init();
    const target = app.get<EventLog>(EVENT_LOG);
    const fromOffset = base?.offset ?? 0;
    const untilOffset = await copyRecords(source, target, fromOffset, request.until);
    const failure = app.get(ProjectionRunner).failureSummary;
    await app.close(); // final checkpoint, log flushed and synced
    // The service stops at the same record (same log, same projections): name it the same way.
    if (failure !== '') throw new Error(`replay stopped: ${failure}`);
    return {
      fromOffset,
      untilOffset,
      events: untilOffset - fromOffset,
      base: base ? 'checkpoint' : 'log start',
    };
  } finally {
    await source.close();
    lock.release();
  }
}

function copyServiceKey(source: string, target: string): void {
  const key = join(source, DEFAULT_SERVICE_KEY_FILE);
  if (existsSync(key)) copyFileSync(key, join(target, DEFAULT_SERVICE_KEY_FILE), constants.COPYFILE_EXCL);
}

async function chooseBase(request: ReplayRequest, source: EventLog): Promise<Checkpoint | null> {
  if (source.firstOffset() === 0) return null;
  const store = new CheckpointStore(request.source);
  const covered = store
    .headers()
    .filter((checkpoint) => checkpoint.offset >= source.firstOffset())
    .filter(
      (checkpoint) =>
        request.until === undefined ||
        !('offset' in request.until) ||
        checkpoint.offset <= request.until.offset,
    );
  const oldest = covered[covered.length - 1];
  if (oldest === undefined) {
    throw new UsageError(
      `the log starts at offset ${source.firstOffset()} and no kept checkpoint covers the requested point; ` +
        'replay cannot reach further back than the oldest kept checkpoint',
    );
  }
  const checkpoint = await store.read(oldest.offset);
  if (checkpoint === null) throw new Error(`the checkpoint at offset ${oldest.offset} is damaged`);
  return checkpoint;
}

async function copyBase(sourceRoot: string, targetRoot: string, base: Checkpoint): Promise<void> {
  const rooms = join(targetRoot, 'rooms');
  mkdirSync(rooms, { recursive: true });
  for (const [file, length] of Object.entries(base.files)) {
    copyFileSync(join(sourceRoot, 'rooms', file), join(rooms, file));
    truncateSync(join(rooms, file), length);
  }
  await new CheckpointStore(targetRoot).write(base);
}

/**
 * Appends the source's records [from, until) to the target batch by batch: each source batch is one
 * target append (so the target keeps the batch marks), many in flight at once (group commit writes
 * them together). A time cut falling inside a batch moves back to the batch's start.
 */
async function copyRecords(
  source: EventLog,
  target: EventLog,
  from: number,
  until?: LogPoint,
): Promise<number> {
  let batch: Buffer[] = [];
  let appends: Array<Promise<unknown>> = [];
  let held = 0;
  let next = from;
  for await (const record of source.read(from)) {
    if (until !== undefined && reached(until, record.offset, decodeEvent(record.payload).at)) break;
    batch.push(record.payload);
    if (record.continues) continue;
    appends.push(target.append(batch));
    held += batch.length;
    next = record.offset + 1;
    batch = [];
    if (held >= BATCH) {
      await Promise.all(appends);
      [appends, held] = [[], 0];
    }
  }
  await Promise.all(appends);
  return next;
}
