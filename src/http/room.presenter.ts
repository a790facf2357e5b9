import { Inject, Injectable } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { budgetFooter } from '../access/budget-footer';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { RoomView } from '../rooms/model/room-view';
import { RoomExport } from '../rooms/room-export.service';
import { renderRoomJson } from './render/room-json.renderer';
import { renderRoomText } from './render/room-text.renderer';
import { Replies } from './reply';
import { RoomReplyCache } from './room-reply.cache';
import { CompressedBody } from './compression/compressed-body';
import { sendEncodedStream } from './compression/encoded-send';
import { RoomsProjection } from '../rooms/rooms.projection';
import { RoomReadQuery } from '../rooms/room-query';
import { hasClass } from '../common/names';

/** Chooses the representation of room replies (text or JSON, cache policy) and writes them. */
@Injectable()
export class RoomPresenter {
  private readonly replies: Replies;

  private readonly cache: RoomReplyCache;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly rooms: RoomsProjection,
  ) {
    this.replies = new Replies(config.edgeCacheSeconds);
    this.cache = new RoomReplyCache(config.replyCacheMb * 1024 * 1024);
  }

  /**
   * A plain read (no long-poll) through the rendered-reply cache: the view is computed and rendered
   * only when this room changed since the same variant was last asked for, and compressed once per
   * coding and change. `e-` rooms are never cached (what is expired depends on the clock, not on the
   * room's version).
   */
  cachedRead(reply: FastifyReply, room: string, query: RoomReadQuery, view: () => RoomView): void {
    const variant = `${query.json ? 'j' : 't'}|${query.limit}|${query.since ?? ''}`;
    const version = this.rooms.version(room);
    const cacheable = !hasClass(room, 'e');
    let body: Buffer | CompressedBody | undefined = cacheable
      ? this.cache.get(room, version, variant)
      : undefined;
    if (body === undefined) {
      const rendered = view();
      const plain = Buffer.from(query.json ? renderRoomJson(rendered) : renderRoomText(rendered), 'utf8');
      body = (cacheable ? this.cache.set(room, version, variant, plain) : null) ?? plain;
    }
    if (query.json) return this.replies.json(reply, body, 'shareable');
    const footer = budgetFooter(reply.request);
    if (footer === null) return this.replies.text(reply, body, 'shareable');
    const plain = body instanceof CompressedBody ? body.plain : body;
    this.replies.text(reply, Buffer.concat([plain, Buffer.from(`${footer}\n`, 'utf8')]), 'no-store');
  }

  /**
   * A read: shareable at the edge unless it long-polled or carries the `# budget:` footer (contract
   * §1.4, §13.3 — a cached copy would show one caller's budget to others). JSON has no footers.
   */
  read(reply: FastifyReply, view: RoomView, json: boolean, waited: boolean): void {
    if (json) return this.replies.json(reply, renderRoomJson(view), waited ? 'no-store' : 'shareable');
    const footer = budgetFooter(reply.request);
    const cache = waited || footer !== null ? 'no-store' : 'shareable';
    this.replies.text(reply, renderRoomText(view, footer === null ? [] : [footer]), cache);
  }

  /** A write reply: the room after the append; JSON adds the stored record as `posted` (§8.4). */
  written(reply: FastifyReply, view: RoomView, posted: string, json: boolean): void {
    if (json) return this.replies.json(reply, renderRoomJson(view, posted));
    const footer = budgetFooter(reply.request);
    this.replies.text(reply, renderRoomText(view, footer === null ? [] : [footer]));
  }

  export(reply: FastifyReply, exported: RoomExport): void {
    reply
      .code(200)
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      .header('x-room-generation', String(exported.generation))
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('x-robots-tag', 'noindex');
    if (exported.body === null) reply.send('');
    else sendEncodedStream(reply, exported.body);
  }
}
