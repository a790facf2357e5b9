import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { RateBucket } from '../../access/rate-bucket.decorator';
import { readJsonBody } from '../../http/body/body-reader';
import { markReplayed } from '../../http/idempotent-replay';
import { NotesPresenter } from './notes.presenter';
import { Query } from '../../http/url/query-parser';
import { freeFormSegment } from '../../http/url/free-form-segment';
import { NoteLanesService } from '../note-lanes.service';
import { QueryConditionFields } from '../note-conditions';
import { NoteReadService } from '../note-read.service';
import { NoteWriteAck } from '../note-write.service';
import { SignedNoteLaneService } from '../signed-note-lane.service';
import { parseNotePost } from './note-post.parser';
import { parseIdempotencyKey } from '../../write/idempotency/idempotency-key';

type Params = Record<string, string>;
type SetParams = { readonly ns: string; readonly key: string; readonly '*': string };
type SetSignedParams = SetParams & { readonly did: string; readonly sig: string; readonly nonce: string };

/**
 * Note routes: parse the request, call one service, hand the result to the presenter.
 *
 * Path parameters come through `@Param()` on the write routes; the reads take `req.params` themselves
 * (Nest resolves each `@Param()` through an async pipe step even with no pipe configured: nothing
 * beside a write's group commit, but not free on a read answered from memory).
 */
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
  async post(
    @Param() { ns, key }: Params,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const post = parseNotePost(await readJsonBody(req, res), ns, key, idempotencyKeyOf(req));
    const ack =
      post.lane === 'signed' ? await this.signed.post(post.command) : await this.lanes.post(post.command);
    this.written(req, res, ack);
  }

  @Get(':ns/:key/set/*')
  @RateBucket('write')
  async set(
    @Param() { ns, key, '*': value }: SetParams,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const idempotencyKey = idempotencyKeyOf(req);
    const command = {
      ns,
      key,
      rawValue: freeFormSegment(value),
      conditions: conditionFields(req),
      idempotencyKey,
    };
    this.written(req, res, await this.lanes.set(command));
  }

  @Get(':ns/:key/set-signed/:did/:sig/:nonce/*')
  @RateBucket('write')
  async setSigned(
    @Param() { ns, key, did, sig, nonce, '*': value }: SetSignedParams,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const rawValue = freeFormSegment(value);
    const idempotencyKey = idempotencyKeyOf(req);
    const command = { ns, key, did, sig, nonce, rawValue, conditions: conditionFields(req), idempotencyKey };
    this.written(req, res, await this.signed.setSigned(command));
  }

  private written(req: FastifyRequest, res: FastifyReply, ack: NoteWriteAck): void {
    if (ack.replayed) markReplayed(res);
    this.presenter.written(res, ack, isJson(req));
  }
}

/** The Idempotency-Key header or the idempotency_key parameter (issue 28); a malformed one is a 400. */
function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  return parseIdempotencyKey(req.headers['idempotency-key'], (req.query as Query).idempotency_key);
}

/** `?if=` and `?if_absent=` as sent; the lanes parse them after their gate. */
function conditionFields(req: FastifyRequest): QueryConditionFields {
  const query = req.query as Query;
  return { if: query.if, if_absent: query.if_absent };
}

function isJson(req: FastifyRequest): boolean {
  return (req.query as Query).format === 'json';
}
