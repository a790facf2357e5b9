import { JetStreamManager } from '@nats-io/jetstream';
import { archiveBelow } from './archive/archive-writer';
import { StreamArchive } from './archive/stream-archive';
import { NatsLogOptions } from './nats-log.options';
import { StreamFloor } from './stream-floor';

/** CHAT_NATS_ARCHIVE_CHUNK_BYTES when the options do not say (tests, tools). */
export const DEFAULT_ARCHIVE_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * Purges the stream below an offset (retention `snapshot`), archiving first when CHAT_NATS_ARCHIVE is
 * `object`. Invariant: with the archive on, no record leaves the stream unless a stored chunk holds
 * it — a failed archive write purges nothing, says so in a log line and counts a failure
 * (chat_nats_archive_failures_total); the next snapshot's purge tries again.
 */
export class StreamPurge {
  private failed = 0;

  private constructor(
    private readonly jsm: JetStreamManager,
    private readonly options: NatsLogOptions,
    private readonly floor: StreamFloor,
    private readonly archive: StreamArchive | undefined,
  ) {}

  static async open(
    jsm: JetStreamManager,
    options: NatsLogOptions,
    floor: StreamFloor,
  ): Promise<StreamPurge> {
    const archive = options.archive === 'object' ? await StreamArchive.open(options) : undefined;
    return new StreamPurge(jsm, options, floor, archive);
  }

  /** Archive writes that failed since start (each one a purge not made). */
  get failures(): number {
    return this.failed;
  }

  /**
   * Removes the records below `offset` (the stream's first record is at `first`) once they are
   * archived; returns the stream's new first offset, or undefined when nothing was purged.
   */
  async below(offset: number, first: number): Promise<number | undefined> {
    const { stream, logger } = this.options;
    let upTo = offset;
    if (this.archive) {
      try {
        upTo = await archiveBelow(this.archive, {
          stream,
          first,
          below: offset,
          chunkBytes: this.options.archiveChunkBytes ?? DEFAULT_ARCHIVE_CHUNK_BYTES,
        });
      } catch (error) {
        this.failed++;
        const line = `archiving stream ${stream} below offset ${offset} to ${this.archive.where} failed, so the stream is not purged: ${(error as Error).message}`;
        (logger?.error ?? logger?.warn)?.call(logger, line);
        return undefined;
      }
    }
    if (upTo <= first) return undefined;
    const { purged } = await this.jsm.streams.purge(stream, { seq: upTo + 1 });
    this.floor.saw(upTo + 1);
    const archived = this.archive ? ` (archived in ${this.archive.where})` : '';
    logger?.log(`purged ${purged} record(s) below offset ${upTo} from stream ${stream}${archived}`);
    return upTo;
  }

  async close(): Promise<void> {
    await this.archive?.close();
  }
}
