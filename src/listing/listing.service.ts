import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { pyRound } from '../common/py-compat/py-float';
import { noteCaps } from '../notes/note-caps';
import { NotesProjection } from '../notes/notes.projection';
import { RoomsProjection } from '../rooms/rooms.projection';
import { renderListingJson } from './http/listing-json.renderer';
import { nextAgoChangeSeconds, renderListingText } from './http/listing-text.renderer';
import { ListedRoomView, ListingView, NotesRollupView, TOPIC_PREVIEW_CHARS } from './listing-view';
import { ListingProjection } from './listing.projection';
import { WINDOW_RECORDS } from './room-window';

/** Everything a listing shows except the idle times, which move with the clock. */
interface Measured {
  readonly version: number;
  readonly rooms: ReadonlyArray<Omit<ListedRoomView, 'idleSeconds'> & { readonly lastWriteAt: number }>;
  readonly view: Omit<ListingView, 'rooms'>;
}

interface Rendered {
  readonly version: number;
  /** µs after which an idle time on this page reads differently. */
  readonly validUntil: number;
  readonly body: Buffer;
}

/**
 * `/rooms` (contract §11): the listing read from ListingProjection, RoomsProjection and the notes read
 * model, never from disk. Always current — a reply is reused only while the read models have not moved
 * (ListingProjection.version) and no idle time it prints has ticked — which is stricter than the
 * reference's 3-second walk cache and cheap: a cached reply is one Map lookup and a Buffer.
 */
@Injectable()
export class ListingService {
  private readonly measured = new Map<number, Measured>();
  private readonly rendered = new Map<string, Rendered>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly listing: ListingProjection,
    private readonly rooms: RoomsProjection,
    private readonly notes: NotesProjection,
    private readonly clock: Clock,
  ) {}

  /** The rendered listing (text or compact JSON, newline-terminated) for an already clamped limit. */
  reply(limit: number, json: boolean): Buffer {
    const now = this.clock.nowMicros();
    const key = `${json ? 'j' : 't'}${limit}`;
    const cached = this.rendered.get(key);
    if (cached !== undefined && cached.version === this.listing.version && now < cached.validUntil) {
      return cached.body;
    }
    const measured = this.measure(limit);
    const view = this.at(measured, now);
    const body = Buffer.from(json ? renderListingJson(view) : renderListingText(view), 'utf8');
    this.rendered.set(key, {
      version: measured.version,
      validUntil: this.validUntil(measured, now, json),
      body,
    });
    return body;
  }

  /** The listing as of now (tests and the MCP tool read it). */
  view(limit: number): ListingView {
    return this.at(this.measure(limit), this.clock.nowMicros());
  }

  private at(measured: Measured, now: number): ListingView {
    const rooms = measured.rooms.map(({ lastWriteAt, ...room }) => ({
      ...room,
      idleSeconds: idleSeconds(now, lastWriteAt),
    }));
    return { ...measured.view, rooms };
  }

  /** The earliest moment a printed idle time changes: per second in JSON, per displayed unit in text. */
  private validUntil(measured: Measured, now: number, json: boolean): number {
    let until = Number.POSITIVE_INFINITY;
    for (const room of measured.rooms) {
      const idle = idleSeconds(now, room.lastWriteAt);
      const next = json ? idle + 1 : nextAgoChangeSeconds(idle);
      until = Math.min(until, room.lastWriteAt + next * 1_000_000);
    }
    return until;
  }

  private measure(limit: number): Measured {
    const version = this.listing.version;
    const cached = this.measured.get(limit);
    if (cached !== undefined && cached.version === version) return cached;
    const index = this.listing.recency();
    const shown = index.first(limit);
    const pooledWriters = new Set<string>();
    let windowed = 0;
    let runs = 0;
    const rooms = shown.map((key) => {
      const meta = this.rooms.meta(key.name)!;
      const window = this.listing.window(key.name);
      windowed += window.size;
      runs += window.run;
      for (const writer of window.writerNames()) pooledWriters.add(writer);
      return {
        room: key.name,
        lastSeq: meta.head,
        bytes: meta.bytes,
        lastWriteAt: meta.lastWriteAt,
        topic: this.topic(key.name),
        window: window.size,
        zeroResponseShare: ratio(window.run, window.size),
        nickDiversity: ratio(window.distinctWriters, window.size),
      };
    });
    const notes = this.notesRollup();
    const measured: Measured = {
      version,
      rooms,
      view: {
        total: index.size,
        capacity: this.config.maxRooms,
        bytes: index.bytes,
        bytesCapacity: this.config.roomBytesTotal,
        engagement: {
          windowCap: WINDOW_RECORDS,
          windowedMessages: windowed,
          zeroResponseShare: ratio(runs, windowed),
          nickDiversity: ratio(pooledWriters.size, windowed),
          noteToMessageRatio: ratio(notes.total, windowed),
        },
        notes,
      },
    };
    this.measured.set(limit, measured);
    return measured;
  }

  private topic(room: string): string | null {
    const value = this.notes.get('topic', room)?.value;
    if (value === undefined) return null;
    const points = Array.from(value);
    return points.length > TOPIC_PREVIEW_CHARS ? `${points.slice(0, TOPIC_PREVIEW_CHARS).join('')}…` : value;
  }

  private notesRollup(): NotesRollupView {
    const caps = noteCaps(this.config);
    return {
      total: this.notes.totalNotes,
      bytes: this.notes.totalBytes,
      capacity: caps.total,
      capacityPerNamespace: caps.perNamespace,
    };
  }
}

function idleSeconds(nowMicros: number, lastWriteAt: number): number {
  return Math.max(0, Math.floor((nowMicros - lastWriteAt) / 1_000_000));
}

/** `round(part / whole, 4)`, or null when there is nothing to measure. */
function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : pyRound(part / whole, 4);
}
