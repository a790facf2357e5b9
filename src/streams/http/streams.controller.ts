import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { RateBucket } from '../../access/rate-bucket.decorator';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { assertName } from '../../common/names';
import { clientOf } from '../../http/client-identity';
import { Query } from '../../http/url/query-parser';
import { parseSeqParam } from '../../rooms/cursor/seq-param';
import { parseCursors, RoomCursor } from '../cursor/room-cursors';
import { StreamService } from '../sse/stream.service';

type Params = Record<string, string>;

/**
 * The event streams (text/event-stream): GET /r/{room}/sse for one room, GET /watch/sse?rooms=… for a
 * set. Each (re)connection costs one read token (the guard), then its input is checked (room name,
 * `since`, `rooms`, `Last-Event-ID`: 400 naming the one at fault), then a stream slot is taken (429
 * past a cap) — all before a byte is written, so refusals are ordinary text replies. Then the route
 * hands the raw response over to the stream. HEAD answers the stream's headers and ends.
 */
@Controller()
export class StreamsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly streams: StreamService,
  ) {}

  @Get('r/:room/sse')
  @RateBucket('read')
  room(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    const { room } = req.params as Params;
    assertName(room);
    const since = (req.query as Query).since;
    const cursor: RoomCursor = {
      room,
      since: since === undefined ? null : parseSeqParam('since', since),
      generation: null,
    };
    this.open(req, res, this.resumed([cursor], req));
  }

  @Get('watch/sse')
  @RateBucket('read')
  rooms(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    const cursors = parseCursors('rooms', (req.query as Query).rooms ?? '', this.config.watchMaxRooms);
    this.open(req, res, this.resumed(cursors, req));
  }

  /** `Last-Event-ID` (sent by EventSource on a reconnect) replaces the cursor of every room it names. */
  private resumed(cursors: RoomCursor[], req: FastifyRequest): RoomCursor[] {
    const header = req.headers['last-event-id'];
    const raw = Array.isArray(header) ? header[header.length - 1] : header;
    if (raw === undefined || raw.trim() === '') return cursors;
    const last = new Map(
      parseCursors('Last-Event-ID', raw.trim(), this.config.watchMaxRooms).map((c) => [c.room, c]),
    );
    return cursors.map((cursor) => last.get(cursor.room) ?? cursor);
  }

  private open(req: FastifyRequest, res: FastifyReply, cursors: RoomCursor[]): void {
    const pending = this.streams.prepare(cursors, clientOf(req));
    const headers: Record<string, string | number | readonly string[]> = {};
    for (const [name, value] of Object.entries(res.getHeaders()))
      if (value !== undefined) headers[name] = value;
    Object.assign(headers, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'x-robots-tag': 'noindex',
    });
    res.hijack();
    if (req.method === 'HEAD') {
      pending.abandon();
      res.raw.writeHead(200, headers as Record<string, string>);
      res.raw.end();
      return;
    }
    pending.open(res.raw, headers);
  }
}
