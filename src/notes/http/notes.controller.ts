import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { RateBucket } from '../../access/rate-bucket.decorator';
import { readJsonBody } from '../../http/body/body-reader';
import { NotesPresenter } from './notes.presenter';
import { Query } from '../../http/url/query-parser';
import { freeFormSegment } from '../../http/url/free-form-segment';
import { NoteLanesService } from '../note-lanes.service';
import { NoteReadService } from '../note-read.service';
import { NoteWriteAck } from '../note-write.service';
import { SignedNoteLaneService } from '../signed-note-lane.service';

type Params = Record<string, string>;

/** Note routes: parse the request, call one service, hand the result to the presenter. */
@Controller('kv')
export class NotesController {
  constructor(
    private readonly reader: NoteReadService,
    private readonly lanes: NoteLanesService,
    private readonly signed: SignedNoteLaneService,
    private readonly presenter: NotesPresenter,
  ) {}

  @Get(':ns')
  @RateBucket('read')
  list(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    const { ns } = req.params as Params;
    this.presenter.list(res, ns, this.reader.list(ns), isJson(req));
  }

  @Get(':ns/:key')
  @RateBucket('read')
  read(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    const { ns, key } = req.params as Params;
    this.presenter.note(res, this.reader.read(ns, key).value);
  }

  @Post(':ns/:key')
  @RateBucket('write')
  async post(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const body = await readJsonBody(req, res);
    const { ns, key } = req.params as Params;
    this.written(req, res, await this.lanes.post(ns, key, body));
  }

  @Get(':ns/:key/set/*')
  @RateBucket('write')
  async set(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const { ns, key, '*': value } = req.params as Params;
    this.written(req, res, await this.lanes.set(ns, key, freeFormSegment(value), req.query as Query));
  }

  @Get(':ns/:key/set-signed/:did/:sig/:nonce/*')
  @RateBucket('write')
  async setSigned(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const { ns, key, did, sig, nonce, '*': value } = req.params as Params;
    const note = { ns, key, did, sig, nonce, rawValue: freeFormSegment(value) };
    this.written(req, res, await this.signed.setSigned(note, req.query as Query));
  }

  private written(req: FastifyRequest, res: FastifyReply, ack: NoteWriteAck): void {
    this.presenter.written(res, ack, isJson(req));
  }
}

function isJson(req: FastifyRequest): boolean {
  return (req.query as Query).format === 'json';
}
