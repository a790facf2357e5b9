import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { RateBucket } from '../../access/rate-bucket.decorator';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { readJsonBody } from '../../http/body/body-reader';
import { clientGoneSignal } from '../../http/client-gone';
import { clientOf } from '../../http/client-identity';
import { markReplayed } from '../../http/idempotent-replay';
import { RoomPresenter } from './room.presenter';
import { Query } from '../../http/url/query-parser';
import { freeFormSegment } from '../../http/url/free-form-segment';
import { MessageLanesService } from '../message-lanes.service';
import { RoomExportService } from '../room-export.service';
import { RoomHeadService } from '../chain/room-head.service';
import { SignedMessageLaneService } from '../signed-message-lane.service';
import { parseMessagePost } from './message-post.parser';
import { parseRoomQuery } from './room-query';
import { RoomReadService } from '../room-read.service';
import { AppendedMessage } from '../room-write.service';
import { parseIdempotencyKey } from '../../write/idempotency/idempotency-key';

type Params = Record<string, string>;
type SayParams = { readonly room: string; readonly nick: string; readonly '*': string };
type SaySignedParams = {
  readonly room: string;
  readonly did: string;
  readonly sig: string;
  readonly nonce: string;
  readonly '*': string;
};

/**
 * Room routes: parse the request, call one service, hand the result to the presenter.
 *
 * Path parameters come through `@Param()` except on the hot routes (GET /r/{room} and the three
 * message writes), which read `req.params` themselves: Nest resolves each `@Param()` through an
 * async pipe step (even with no pipe configured), a cost every request of a CPU-bound flood pays.
 */
@Controller('r')
export class RoomsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reader: RoomReadService,
    private readonly lanes: MessageLanesService,
    private readonly signed: SignedMessageLaneService,
    private readonly exporter: RoomExportService,
    private readonly heads: RoomHeadService,
    private readonly presenter: RoomPresenter,
  ) {}

  @Get(':room')
  @RateBucket('read')
  async read(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const query = parseRoomQuery(req.query as Query, this.config.maxWait);
    const { room } = req.params as Params;
    if (query.before !== undefined) {
      const before = query.before;
      return this.presenter.cachedRead(res, room, query, () =>
        this.reader.page(room, before, query.since, query.limit),
      );
    }
    if (query.wait === 0) {
      return this.presenter.cachedRead(res, room, query, () =>
        this.reader.plain(room, query.since, query.limit),
      );
    }
    const signal = clientGoneSignal(res);
    const view = await this.reader.read({ room, ...query, signal, client: clientOf(req) });
    this.presenter.read(res, view, query.json, true);
  }

  @Post(':room')
  @RateBucket('write')
  async post(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const { room } = req.params as Params;
    const body = await readJsonBody(req, res);
    const post = parseMessagePost(body, {
      client: clientOf(req),
      room,
      idempotencyKey: idempotencyKeyOf(req),
    });
    const appended =
      post.lane === 'signed' ? await this.signed.write(post.command) : await this.lanes.post(post.command);
    this.written(res, req, appended);
  }

  @Get(':room/export')
  @RateBucket('read')
  export(@Param('room') room: string, @Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.presenter.export(res, this.exporter.open(room, (req.query as Query).after));
  }

  @Get(':room/head')
  @RateBucket('read')
  head(@Param('room') room: string, @Res() res: FastifyReply): void {
    this.presenter.head(res, this.heads.head(room));
  }

  @Get(':room/say/:nick/*')
  @RateBucket('write')
  async say(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const { room, nick, '*': text } = req.params as SayParams;
    const idempotencyKey = idempotencyKeyOf(req);
    const command = { client: clientOf(req), room, nick, rawText: freeFormSegment(text), idempotencyKey };
    this.written(res, req, await this.lanes.say(command));
  }

  @Get(':room/say-signed/:did/:sig/:nonce/*')
  @RateBucket('write')
  async saySigned(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const { room, did, sig, nonce, '*': text } = req.params as SaySignedParams;
    const rawText = freeFormSegment(text);
    const command = {
      client: clientOf(req),
      room,
      did,
      sig,
      nonce,
      rawText,
      idempotencyKey: idempotencyKeyOf(req),
    };
    this.written(res, req, await this.signed.write(command));
  }

  private written(res: FastifyReply, req: FastifyRequest, appended: AppendedMessage): void {
    const json = (req.query as Query).format === 'json';
    const { room, record } = appended;
    if (appended.replayed) markReplayed(res);
    this.presenter.written(res, room, () => this.reader.afterWrite(room), record, json);
  }
}

/** The Idempotency-Key header or the idempotency_key parameter (issue 28); a malformed one is a 400. */
function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  return parseIdempotencyKey(req.headers['idempotency-key'], (req.query as Query).idempotency_key);
}
