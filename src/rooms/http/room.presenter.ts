import { Inject, Injectable } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { budgetFooter } from '../../access/budget-footer';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { RoomView } from '../read-side/room-view';
import { RoomExport } from '../room-export.service';
import { RoomHead } from '../chain/room-head';
import { renderRoomJson } from './room-json.renderer';
import { renderRoomTextBytes } from './room-text.renderer';
import { Replies } from '../../http/reply';
import { RoomReplyCache } from './room-reply.cache';
import { CompressedBody } from '../../http/compression/compressed-body';
import { sendEncodedStream } from '../../http/compression/encoded-send';
import { RoomsProjection } from '../rooms.projection';
import { RoomReadQuery } from './room-query';
import { hasClass } from '../../common/names';

/** Chooses the representation of room replies (text or JSON, cache policy) and writes them. */
@Injectable()
export class RoomPresenter {
  private readonly replies: Replies;

  private readonly cache: RoomReplyCache;
  /** The last text write reply rendered, with the room version it shows. */
  private lastWritten: { room: string; version: number; body: Buffer } | undefined;

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
    const base = `${query.json ? 'j' : 't'}|${query.limit}|${query.since ?? ''}`;
    const variant = query.before === undefined ? base : `${base}|b${query.before}`;
    const version = this.rooms.version(room);
    const cacheable = !hasClass(room, 'e');
    let body: Buffer | CompressedBody | undefined = cacheable
      ? this.cache.get(room, version, variant)
      : undefined;
    if (body === undefined) {
      const rendered = view();
      const plain = query.json
        ? Buffer.from(renderRoomJson(rendered), 'utf8')
        : renderRoomTextBytes(rendered);
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
    this.replies.text(reply, renderRoomTextBytes(view, footer === null ? [] : [footer]), cache);
  }

  /**
   * A write reply: the room after the append (`view`); JSON adds the stored record as `posted` (§8.4).
   * The writers of one group commit to one room are answered together and all show the same room
   * version, so the last text rendered is kept and reused while its room and version match (a
   * single slot: with writes spread over many rooms a cache entry per write cost more than it saved).
   */
  written(reply: FastifyReply, room: string, view: () => RoomView, posted: string, json: boolean): void {
    if (json) return this.replies.json(reply, renderRoomJson(view(), posted));
    const plain = this.lastWrittenText(room, view);
    const footer = budgetFooter(reply.request);
    this.replies.text(
      reply,
      footer === null ? plain : Buffer.concat([plain, Buffer.from(`${footer}\n`, 'utf8')]),
    );
  }

  /** `e-` rooms are rendered every time: what is expired depends on the clock, not on the version. */
  private lastWrittenText(room: string, view: () => RoomView): Buffer {
    if (hasClass(room, 'e')) return renderRoomTextBytes(view());
    const version = this.rooms.version(room);
    const last = this.lastWritten;
    if (last !== undefined && last.room === room && last.version === version) return last.body;
    const body = renderRoomTextBytes(view());
    this.lastWritten = { room, version, body };
    return body;
  }

  /** A signed head: JSON, never cached (it states the room now). */
  head(reply: FastifyReply, head: RoomHead): void {
    this.replies.json(reply, `${JSON.stringify(head)}\n`);
  }

  export(reply: FastifyReply, exported: RoomExport): void {
    reply
      .code(200)
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      .header('x-room-generation', String(exported.generation))
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('x-robots-tag', 'noindex');
    if (exported.chain !== null) {
      reply.header('x-chain-anchor', exported.chain.anchor).header('x-chain-head', exported.chain.head);
    }
    if (exported.body === null) reply.send('');
    else sendEncodedStream(reply, exported.body);
  }
}
