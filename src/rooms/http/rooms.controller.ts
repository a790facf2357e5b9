import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { RateBucket } from '../../access/rate-bucket.decorator';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { readJsonBody } from '../../http/body/body-reader';
import { clientGoneSignal } from '../../http/client-gone';
import { clientOf } from '../../http/client-identity';
import { RoomPresenter } from './room.presenter';
import { Query } from '../../http/url/query-parser';
import { freeFormSegment } from '../../http/url/free-form-segment';
import { MessageLanesService } from '../message-lanes.service';
import { RoomExportService } from '../room-export.service';
import { SignedMessageLaneService } from '../signed-message-lane.service';
import { parseRoomQuery } from '../room-query';
import { RoomReadService } from '../room-read.service';
import { AppendedMessage } from '../room-write.service';

type Params = Record<string, string>;

/** Room routes: parse the request, call one service, hand the result to the presenter. */
@Controller('r')
export class RoomsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reader: RoomReadService,
    private readonly lanes: MessageLanesService,
    private readonly signed: SignedMessageLaneService,
    private readonly exporter: RoomExportService,
    private readonly presenter: RoomPresenter,
  ) {}

  @Get(':room')
  @RateBucket('read')
  async read(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const query = parseRoomQuery(req.query as Query, this.config.maxWait);
    const { room } = req.params as Params;
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
    const body = await readJsonBody(req, res);
    this.written(res, req, await this.lanes.post(clientOf(req), (req.params as Params).room, body));
  }

  @Get(':room/export')
  @RateBucket('read')
  export(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.presenter.export(res, this.exporter.open((req.params as Params).room));
  }

  @Get(':room/say/:nick/*')
  @RateBucket('write')
  async say(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const { room, nick, '*': text } = req.params as Params;
    this.written(res, req, await this.lanes.say(clientOf(req), room, nick, freeFormSegment(text)));
  }

  @Get(':room/say-signed/:did/:sig/:nonce/*')
  @RateBucket('write')
  async saySigned(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const { room, did, sig, nonce, '*': text } = req.params as Params;
    this.written(
      res,
      req,
      await this.signed.say(clientOf(req), room, did, sig, nonce, freeFormSegment(text)),
    );
  }

  private written(res: FastifyReply, req: FastifyRequest, appended: AppendedMessage): void {
    const json = (req.query as Query).format === 'json';
    const { room, record } = appended;
    this.presenter.written(res, room, () => this.reader.afterWrite(room), record, json);
  }
}
