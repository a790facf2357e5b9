import { Inject, Injectable } from '@nestjs/common';
import { FIXED_LIMITS, AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { ChatEvent, MessageAppended, RoomCreated, RoomReaped } from '../events/chat-event';
import { Projection } from '../projections/projection';
import { NonceIndex } from './read-side/nonce-index';
import { newRoomMeta, RoomMeta } from './read-side/room-meta';
import { parseAppendedRecord, parseRecordLine } from './read-side/stored-record';
import { RingCompactor } from './ring/ring-compactor';
import { completeLines } from './ring/complete-lines';
import { RecordDeque } from './ring/record-deque';
import { RingFileStore } from './ring/ring-file-store';
import { TailCache } from './ring/tail-cache';
import { unreachable } from '../common/unreachable';
import { ChainMarks } from './chain/chain-marks';
import { chainNext, chainOver, chainStart, legacyAnchor } from './chain/room-chain';

interface RoomsSnapshot {
  readonly rooms: RoomMeta[];
  readonly nonces: Array<[string, ReturnType<NonceIndex['toJSON']>]>;
}

/**
 * Folds room events into the rooms read model: per-name metadata (generation, floor, head, bytes…),
 * the ring files on disk and the in-memory tails reads are served from. Applying the same events to
 * the same checkpoint always produces the same files and metadata (compaction decisions depend only
 * on projection state and event timestamps), which is what makes replay and crash recovery exact.
 */
@Injectable()
export class RoomsProjection implements Projection {
  readonly name = 'rooms';
  private readonly metas = new Map<string, RoomMeta>();
  private readonly nonces = new Map<string, NonceIndex>();
  /** Bumped by every event applied to a room: what rendered-reply caches key on (not checkpointed). */
  private readonly versions = new Map<string, number>();
  private live = 0;
  private liveBytes = 0;
  private readonly compactor: RingCompactor;
  /** CHAT_ROOM_CHAIN: off only to measure what the chain costs (chains then stay ''). */
  private readonly chained: boolean;
  private readonly marks: ChainMarks;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly files: RingFileStore,
    private readonly tails: TailCache,
  ) {
    this.compactor = new RingCompactor(files, config.ephemeralTtlSeconds);
    this.chained = config.roomChain === 'on';
    this.marks = new ChainMarks(config.ringBytes);
  }

  apply(event: ChatEvent): void {
    if ('room' in event) this.versions.set(event.room, (this.versions.get(event.room) ?? 0) + 1);
    switch (event.type) {
      case 'room.created':
        return this.created(event);
      case 'message.appended':
        return this.appended(event);
      case 'room.reaped':
        return this.reaped(event);
      case 'note.written':
      case 'note.reclaimed':
        return;
      default:
        return unreachable(event, 'event');
    }
  }

  meta(room: string): RoomMeta | undefined {
    return this.metas.get(room);
  }

  /** Changes whenever anything about the room changes (0 for a room no event touched since start). */
  version(room: string): number {
    return this.versions.get(room) ?? 0;
  }

  /** The newest ≤ 1 MiB of a live room, loaded from its ring file when not cached; null if absent. */
  tail(room: string): RecordDeque | null {
    const meta = this.metas.get(room);
    if (meta === undefined || !meta.exists) return null;
    const cached = this.tails.get(room);
    if (cached !== undefined) return cached;
    const tail = this.loadTail(meta);
    this.tails.put(room, tail);
    return tail;
  }

  /** The last nonce `did` spent in `room` that still counts for the stale-nonce rule, or null. */
  lastNonce(room: string, did: string): bigint | null {
    const meta = this.metas.get(room);
    if (meta === undefined || !meta.exists) return null;
    return this.nonces.get(room)?.last(did, meta.appended, meta.firstSeq) ?? null;
  }

  get liveRooms(): number {
    return this.live;
  }

  get liveRoomBytes(): number {
    return this.liveBytes;
  }

  *liveMetas(): IterableIterator<RoomMeta> {
    for (const meta of this.metas.values()) if (meta.exists) yield meta;
  }

  /** Ring files a checkpoint taken now must name, with the length it may trust. */
  referencedFiles(): Map<string, number> {
    const files = new Map<string, number>();
    for (const meta of this.liveMetas()) files.set(meta.file, meta.bytes);
    return files;
  }

  snapshot(): RoomsSnapshot {
    return {
      rooms: [...this.metas.values()].map((meta) => ({ ...meta })),
      nonces: [...this.nonces].map(([room, index]) => [room, index.toJSON()]),
    };
  }

  restore(state: unknown): void {
    this.metas.clear();
    this.nonces.clear();
    this.marks.clear();
    const snapshot = state as RoomsSnapshot;
    for (const [room, entries] of snapshot.nonces) this.nonces.set(room, NonceIndex.from(entries));
    this.live = 0;
    this.liveBytes = 0;
    for (const saved of snapshot.rooms) {
      const meta = { ...saved };
      // A checkpoint from before issue 29 (no field) or written with the chain off (''):
      if (meta.exists && !meta.chain) this.chainFromRing(meta);
      this.metas.set(meta.name, meta);
      if (meta.exists) {
        this.live++;
        this.liveBytes += meta.bytes;
        this.tails.drop(meta.name);
      }
    }
  }

  private created(event: RoomCreated): void {
    const meta = this.metas.get(event.room) ?? newRoomMeta(event.room);
    this.metas.set(event.room, meta);
    if (meta.exists) return; // a duplicate creation cannot happen through the write model; stay idempotent
    meta.exists = true;
    meta.generation = event.generation;
    meta.epoch = 0;
    meta.file = RingFileStore.fileName(event.room, event.generation, 0);
    meta.records = 0;
    meta.bytes = 0;
    meta.firstSeq = 0;
    meta.appended = 0;
    meta.lastWriteAt = event.at;
    meta.anchor = meta.chain = this.chained ? chainStart(event.room, event.generation) : '';
    this.nonces.delete(event.room);
    this.marks.forget(event.room);
    this.files.delete(meta.file); // a leftover from a crash before any checkpoint named it
    this.live++;
    // No tail yet: tails are for rooms being read (tail() loads one on demand), so a replay or a
    // burst of writes to unread rooms does not fill the budget with rooms nobody asked for.
  }

  private appended(event: MessageAppended): void {
    const meta = this.metas.get(event.room);
    if (meta === undefined || !meta.exists) {
      throw new Error(`log order violated: message ${event.seq} for room ${event.room} that does not exist`);
    }
    const data = Buffer.from(`${event.record}\n`, 'utf8');
    this.files.append(meta.file, meta.bytes, data);
    // Parsed only when something keeps it: a room nobody reads has no tail (replay skips the parse).
    const tail = this.tails.peek(event.room);
    const record = tail !== undefined || event.nonce !== undefined ? parseAppendedRecord(event.record) : null;
    if (event.nonce !== undefined && record !== null) {
      let index = this.nonces.get(event.room);
      if (index === undefined) this.nonces.set(event.room, (index = new NonceIndex()));
      index.record(record.from, event.nonce, meta.appended, event.seq);
    }
    meta.appended += data.length;
    meta.bytes += data.length;
    this.liveBytes += data.length;
    meta.records++;
    meta.head = event.seq;
    if (this.chained) {
      meta.chain = chainNext(meta.chain, data);
      this.marks.remember(event.room, meta.bytes, meta.chain);
    }
    if (meta.firstSeq === 0) meta.firstSeq = event.seq;
    meta.lastWriteAt = event.at;
    if (tail !== undefined && record !== null) this.tails.adjust(event.room, tail.push(record));
    if (meta.bytes > this.ringLimit()) this.compact(meta, event.at);
  }

  private reaped(event: RoomReaped): void {
    const meta = this.metas.get(event.room);
    // The reaper decided on an older state if the room was written since: then the reap is void.
    if (meta === undefined || !meta.exists || meta.head !== event.lastSeq) return;
    meta.exists = false;
    this.live--;
    this.liveBytes -= meta.bytes;
    meta.file = '';
    meta.bytes = 0;
    meta.records = 0;
    meta.firstSeq = 0;
    meta.anchor = meta.chain = '';
    this.nonces.delete(event.room);
    this.marks.forget(event.room);
    this.tails.drop(event.room);
  }

  /** Ring limit per room: 10 MiB normally, the guaranteed floor once total room bytes hit the budget. */
  private ringLimit(): number {
    return this.liveBytes >= this.config.roomBytesTotal
      ? Math.floor(this.config.roomBytesTotal / this.config.maxRooms)
      : this.config.ringBytes;
  }

  private compact(meta: RoomMeta, atMicros: number): void {
    const result = this.compactor.compact(meta, Math.floor(this.ringLimit() / 2), atMicros);
    this.liveBytes += result.bytes - meta.bytes;
    if (this.chained) meta.anchor = this.movedAnchor(meta, meta.bytes - result.bytes);
    meta.file = result.file;
    meta.epoch = result.epoch;
    meta.bytes = result.bytes;
    meta.records = result.records;
    meta.firstSeq = result.firstSeq;
    const tail = this.tails.peek(meta.name);
    if (tail !== undefined) this.tails.adjust(meta.name, -tail.dropBefore(result.firstSeq));
  }

  /**
   * The kept lines are the old file's bytes from `dropped` on: the anchor moves over the dropped ones,
   * from the newest chain value remembered at or before `dropped` (ChainMarks), else from the old anchor.
   */
  private movedAnchor(meta: RoomMeta, dropped: number): string {
    const from = this.marks.cut(meta.name, dropped) ?? { at: 0, chain: meta.anchor };
    if (from.at === dropped) return from.chain;
    return chainOver(from.chain, this.files.readRange(meta.file, from.at, dropped));
  }

  /**
   * A room restored from a checkpoint written before rooms had chains (or with the chain off): it starts at h0 when
   * the ring still holds the whole generation (epoch 0), else at a stand-in anchor derived from what
   * the ring holds, and runs over the ring's bytes. Every node restoring equal rings gets equal values.
   */
  private chainFromRing(meta: RoomMeta): void {
    if (!this.chained) {
      meta.anchor = meta.chain = '';
      return;
    }
    meta.anchor =
      meta.epoch === 0
        ? chainStart(meta.name, meta.generation)
        : legacyAnchor(meta.name, meta.generation, meta.firstSeq);
    meta.chain =
      meta.bytes === 0 ? meta.anchor : chainOver(meta.anchor, this.files.readRange(meta.file, 0, meta.bytes));
  }

  private loadTail(meta: RoomMeta): RecordDeque {
    const tail = new RecordDeque(FIXED_LIMITS.readWindowBytes);
    if (meta.bytes === 0) return tail; // a new or emptied room: its file may not exist yet
    const start = Math.max(0, meta.bytes - FIXED_LIMITS.readWindowBytes);
    for (const line of completeLines(this.files.readRange(meta.file, start, meta.bytes), start > 0)) {
      const record = parseRecordLine(line);
      if (record !== null) tail.push(record);
    }
    return tail;
  }
}
