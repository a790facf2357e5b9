import { Controller, Get, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { RateBucket } from '../../access/rate-bucket.decorator';
import { ListingPresenter } from './listing.presenter';
import { Query } from '../../http/url/query-parser';
import { parseLimit } from '../../rooms/http/room-query';
import { ListingService } from '../listing.service';

/** GET /rooms: the room overview (contract §11); `limit` and `format` are never refused. */
@Controller()
export class ListingController {
  constructor(
    private readonly listing: ListingService,
    private readonly presenter: ListingPresenter,
  ) {}

  @Get('rooms')
  @RateBucket('read')
  list(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    const query = req.query as Query;
    const json = query.format === 'json';
    this.presenter.listing(res, this.listing.reply(parseLimit(query.limit), json), json);
  }
}
