import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { RateBucket } from '../../access/rate-bucket.decorator';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { clientGoneSignal } from '../../http/client-gone';
import { clientOf } from '../../http/client-identity';
import { Query } from '../../http/url/query-parser';
import { parseLimit, parseWait } from '../../rooms/http/room-query';
import { parseCursors } from '../cursor/room-cursors';
import { WatchService } from '../watch/watch.service';
import { WatchPresenter } from './watch.presenter';

/**
 * GET /watch?rooms=<room>:<since>,…: the multi-room long-poll for plain-GET clients. One read token
 * (the guard), then the room list (400 naming `rooms`), then one service call. `wait` defaults to the
 * ceiling (watching is what the route is for; `wait=0` reads at once), `limit` is the room read's
 * (default 50, 1..200), shared by all the rooms of the reply.
 */
@Controller('watch')
export class WatchController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly watcher: WatchService,
    private readonly presenter: WatchPresenter,
  ) {}

  @Get()
  @RateBucket('read')
  async watch(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const query = req.query as Query;
    const cursors = parseCursors('rooms', query.rooms ?? '', this.config.watchMaxRooms);
    const { maxWait } = this.config;
    const view = await this.watcher.watch({
      cursors,
      limit: parseLimit(query.limit),
      // HEAD wants the headers: it never parks.
      wait: req.method === 'HEAD' ? 0 : query.wait === undefined ? maxWait : parseWait(query.wait, maxWait),
      signal: clientGoneSignal(res),
      client: clientOf(req),
    });
    this.presenter.watch(res, view, query.format === 'json');
  }
}
