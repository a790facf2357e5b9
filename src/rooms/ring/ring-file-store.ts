import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  unlinkSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { join } from 'node:path';
import { CheckpointFiles } from '../../projections/checkpoint-files';
import { FdCache } from './fd-cache';
import { PendingAppends, PendingRun } from './pending-appends';
import { fdSnapshot, memorySnapshot, RingSnapshot } from './ring-snapshot';
import { storageFullCause } from '../../storage/storage-full.error';
import { syncPaths } from '../../storage/sync-paths';

/**
 * How long an append may wait in memory before it is written (the log already holds it durably).
 * With a thousand rooms written a couple of times a second each, 500 ms held about one record per
 * room: one writev per record, a fifth of a NATS follower's CPU (--cpu-prof, issue 26); 2 s holds
 * about four.
 */
export const FLUSH_AFTER_MS = 2000;
/** A file's held run is written once it has this many appends or bytes... */
const MAX_RUN_CHUNKS = 32;
const MAX_RUN_BYTES = 64 * 1024;
/** ...and everything is written once this much is held across files. */
const MAX_HELD_BYTES = 16 * 1024 * 1024;
/**
 * Files the timer writes per turn of the event loop: with a thousand rooms held, writing them all in
 * one go would hold the loop for milliseconds; in slices, requests are served in between.
 */
const TIMER_FILES_PER_TURN = 64;

/**
 * The ring files: one JSONL file per room and compaction epoch, named `<room>.<generation>.<epoch>.jsonl`
 * inside `<root>/rooms`. They are a materialised projection of the log: written without fsync on the
 * write path (the log already made the write durable), fsynced before a checkpoint names them, and
 * truncated back to the checkpointed length at start-up before the log is replayed over them.
 * A file is only ever appended to; compaction writes the next epoch's file instead of rewriting, so
 * an export that opened the old file keeps reading a consistent snapshot. It is the checkpoint-files
 * port the rooms read model registers (rooms-read-model.module.ts).
 *
 * Appends are held in memory for up to FLUSH_AFTER_MS and written per file in one writev
 * (PendingAppends). Reads see held bytes as if written; an export, a checkpoint and close write them
 * first. A crash loses only held bytes of records the log holds: recovery truncates every file to its
 * checkpointed length (written and fsynced before the checkpoint named it) and replays the log after
 * it. A write that fails on the timer (ENOSPC) keeps the bytes held and is retried by the next append,
 * where a failure surfaces as today: the projection stops with the storage error (507).
 */
export class RingFileStore implements CheckpointFiles {
  readonly dir: string;
  private readonly fds = new FdCache();
  private readonly dirty = new Set<string>();
  private readonly held = new PendingAppends();
  private flushTimer: NodeJS.Timeout | undefined;
  /** The last timer flush's failure, until a flush succeeds. */
  private flushFailure: Error | undefined;

  constructor(root: string) {
    this.dir = join(root, 'rooms');
    mkdirSync(this.dir, { recursive: true });
  }

  static fileName(room: string, generation: number, epoch: number): string {
    return `${room}.${generation}.${epoch}.jsonl`;
  }

  path(file: string): string {
    return join(this.dir, file);
  }

  /**
   * Every byte appended to the file, for an export: the file itself once the held appends are written,
   * or, when the disk refuses them (full, over quota, read-only), a copy in memory of what is on disk
   * plus what is held, so a full disk never turns an export into a 500 (issue 24 item 4).
   */
  snapshot(file: string): RingSnapshot {
    try {
      this.flushFile(file);
    } catch (error) {
      if (storageFullCause(error) === null) throw error;
      const run = this.held.get(file);
      const end = run === undefined ? statSync(this.path(file)).size : run.position + run.bytes;
      return memorySnapshot(this.readRange(file, 0, end));
    }
    return fdSnapshot(openSync(this.path(file), 'r'));
  }

  /** Appends `data` at byte `position` of the file (its current length), creating it if needed. */
  append(file: string, position: number, data: Buffer): void {
    if (this.flushFailure !== undefined) this.flushAll(); // throws again while the disk still refuses
    if (!this.held.add(file, position, data)) {
      this.flushFile(file);
      this.held.add(file, position, data);
    }
    this.dirty.add(file);
    const run = this.held.get(file)!;
    if (run.chunks.length >= MAX_RUN_CHUNKS || run.bytes >= MAX_RUN_BYTES) this.flushFile(file);
    else if (this.held.bytes >= MAX_HELD_BYTES) this.flushAll();
    else this.flushTimer ??= setTimeout(() => this.flushOnTimer(), FLUSH_AFTER_MS).unref();
  }

  /** Creates (or replaces) a file holding exactly `data`: used by compaction for the next epoch. */
  writeWhole(file: string, data: Buffer): void {
    this.held.drop(file);
    const path = this.path(file);
    this.fds.close(path);
    const fd = openSync(path, 'w');
    try {
      let written = 0;
      while (written < data.length) written += writeSync(fd, data, written, data.length - written, written);
    } finally {
      closeSync(fd);
    }
    this.dirty.add(file);
  }

  /** Bytes [start, end) of a file, held appends included. */
  readRange(file: string, start: number, end: number): Buffer {
    const held = this.held.slice(file, start, end);
    if (held === null) return this.readFromDisk(file, start, end);
    if (held.from <= start) return Buffer.from(held.data);
    return Buffer.concat([this.readFromDisk(file, start, held.from), held.data]);
  }

  private readFromDisk(file: string, start: number, end: number): Buffer {
    const buffer = Buffer.allocUnsafe(Math.max(0, end - start));
    const fd = openSync(this.path(file), 'r');
    try {
      let read = 0;
      while (read < buffer.length) {
        const n = readSync(fd, buffer, read, buffer.length - read, start + read);
        if (n === 0) break;
        read += n;
      }
      return read === buffer.length ? buffer : buffer.subarray(0, read);
    } finally {
      closeSync(fd);
    }
  }

  size(file: string): number {
    this.flushFile(file);
    const path = this.path(file);
    return existsSync(path) ? statSync(path).size : -1;
  }

  /**
   * Cuts a file back to a checkpointed length (start-up recovery). A file already at that length
   * (a clean stop, a restored snapshot) is left alone: its bytes were fsynced before a checkpoint
   * named them, so there is nothing to make durable (an fsync each cost seconds over 5,000 rooms).
   */
  truncate(file: string, length: number): void {
    this.held.drop(file);
    const path = this.path(file);
    this.fds.close(path);
    if (statSync(path).size === length) return;
    const fd = openSync(path, 'r+');
    try {
      ftruncateSync(fd, length);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  delete(file: string): void {
    this.held.drop(file);
    const path = this.path(file);
    this.fds.close(path);
    this.dirty.delete(file);
    if (existsSync(path)) unlinkSync(path);
  }

  list(): string[] {
    return readdirSync(this.dir).filter((name) => name.endsWith('.jsonl'));
  }

  /** fsyncs every file written since the last call, then the directory (new names must survive too). */
  async syncDirty(): Promise<void> {
    this.flushAll();
    const files = [...this.dirty];
    this.dirty.clear();
    // A file compacted away or reaped after it was written needs no sync: no checkpoint will name it.
    await syncPaths(
      files.map((file) => this.path(file)),
      true,
    );
    await syncPaths([this.dir]);
  }

  close(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    try {
      this.flushAll();
    } finally {
      this.fds.closeAll();
    }
  }

  /** Writes every held run; throws the first failure after trying them all. */
  flushAll(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    let failure: Error | undefined;
    for (const file of this.held.files()) {
      try {
        this.flushFile(file);
      } catch (error) {
        failure ??= error as Error;
      }
    }
    this.flushFailure = failure;
    if (failure !== undefined) throw failure;
  }

  private flushOnTimer(): void {
    this.flushTimer = undefined;
    this.flushSlices(this.held.files(), 0);
  }

  /** Writes `files` TIMER_FILES_PER_TURN at a time; a failure stops here and is retried by the next append. */
  private flushSlices(files: readonly string[], from: number): void {
    const to = Math.min(files.length, from + TIMER_FILES_PER_TURN);
    try {
      for (let i = from; i < to; i++) this.flushFile(files[i]);
      this.flushFailure = undefined;
    } catch (error) {
      this.flushFailure = error as Error; // the bytes stay held
      return;
    }
    if (to < files.length) setImmediate(() => this.flushSlices(files, to));
  }

  private flushFile(file: string): void {
    const run = this.held.get(file);
    if (run === undefined) return;
    writeRun(this.fds.get(this.path(file)), run);
    this.held.drop(file);
  }
}

/** Writes a held run at its position: one writev, then single writes for whatever it left over. */
function writeRun(fd: number, run: PendingRun): void {
  let written = writevSync(fd, run.chunks, run.position);
  if (written === run.bytes) return;
  const rest = Buffer.concat(run.chunks, run.bytes);
  while (written < run.bytes) {
    written += writeSync(fd, rest, written, run.bytes - written, run.position + written);
  }
}
