import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { BadRequestError } from '../common/errors/bad-request.error';
import { renderRoomText } from '../rooms/http/room-text.renderer';
import { messageSigningPayload } from '../identity/signing-payload';
import { ListingService } from '../listing/listing.service';
import { MessageLanesService } from '../rooms/message-lanes.service';
import { parseLimit, parseWait } from '../rooms/http/room-query';
import { RoomReadService } from '../rooms/room-read.service';
import { sweptMessageText } from '../rooms/room-write.rules';
import { AppendedMessage } from '../rooms/room-write.service';
import { SignedMessageLaneService } from '../rooms/signed-message-lane.service';
import { RoomHeadService } from '../rooms/chain/room-head.service';
import { signatureParts, signingHint } from './signing-hint';
import { ToolCaller } from './tool-call';
import { ToolRegistrar } from './tool-registrar';
import { didArg, idempotencyKeyArg, nameArg, nonceArg, nonceDigits, sigArg } from './tool-schemas';
import { parseIdempotencyKey } from '../write/idempotency/idempotency-key';

const sinceArg = z.number().int().nonnegative().optional().describe('Only messages with a greater seq.');

/**
 * The room tools (contract §17): read_room, wait_for_message, say, say_signed, list_rooms and
 * discover_rooms, and room_head (issue 29), each calling the service its HTTP route calls and answering with the route's text.
 */
@Injectable()
export class RoomTools {
  /** The nick `say` uses when none is given: one per process, like the reference wrapper's. */
  readonly defaultNick = `anon-${randomBytes(3).toString('hex')}`;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reader: RoomReadService,
    private readonly lanes: MessageLanesService,
    private readonly signed: SignedMessageLaneService,
    private readonly listing: ListingService,
    private readonly clock: Clock,
    private readonly heads: RoomHeadService,
  ) {}

  register(tools: ToolRegistrar): void {
    tools.tool(
      'read_room',
      { room: nameArg('Room'), since: sinceArg, limit: z.number().int().optional() },
      (a, caller) => this.read(caller, a.room, a.since, a.limit, 0),
    );
    tools.tool(
      'wait_for_message',
      { room: nameArg('Room'), since: z.number().int().nonnegative(), seconds: z.number().default(10) },
      (a, caller) =>
        this.read(caller, a.room, a.since, undefined, parseWait(String(a.seconds), this.config.maxWait)),
    );
    tools.tool(
      'say',
      {
        room: nameArg('Room'),
        text: z.string(),
        nick: nameArg('Your nick').optional(),
        idempotency_key: idempotencyKeyArg,
      },
      async (a, caller) =>
        this.written(
          await this.lanes.post({
            client: caller.client,
            room: a.room,
            from: a.nick ?? this.defaultNick,
            rawText: a.text,
            idempotencyKey: parseIdempotencyKey(undefined, a.idempotency_key),
          }),
        ),
    );
    tools.tool(
      'say_signed',
      {
        room: nameArg('Room'),
        text: z.string(),
        did: didArg,
        sig: sigArg,
        nonce: nonceArg,
        idempotency_key: idempotencyKeyArg,
      },
      (a, caller) =>
        this.saySigned(caller, a.room, a.text, {
          did: a.did,
          sig: a.sig,
          nonce: a.nonce,
          key: a.idempotency_key,
        }),
    );
    tools.tool('list_rooms', { limit: z.number().int().optional() }, (a) =>
      this.listing.reply(parseLimit(limitText(a.limit)), false).toString('utf8'),
    );
    tools.tool('discover_rooms', { since: sinceArg }, (a, caller) =>
      this.read(caller, 'events', a.since, undefined, 0),
    );
    tools.tool('room_head', { room: nameArg('Room') }, (a) => JSON.stringify(this.heads.head(a.room)));
  }

  private async read(
    caller: ToolCaller,
    room: string,
    since?: number,
    limit?: number,
    wait = 0,
  ): Promise<string> {
    const view = await this.reader.read({
      room,
      since: since === undefined ? null : BigInt(since),
      limit: parseLimit(limitText(limit)),
      wait,
      signal: caller.signal,
      client: caller.client,
    });
    return renderRoomText(view);
  }

  private async saySigned(
    caller: ToolCaller,
    room: string,
    text: string,
    signing: { did?: string; sig?: string; nonce?: string | number; key?: string },
  ): Promise<string> {
    const { did, sig, nonce } = signing;
    const parts = signatureParts(did, sig, nonce);
    if (parts === 'all') {
      // As the POST route takes them: did, sig and nonce trimmed, a numeric nonce as its digits.
      const signed = { did: did!.trim(), sig: sig!.trim(), nonce: nonceDigits(nonce).trim() };
      const idempotencyKey = parseIdempotencyKey(undefined, signing.key);
      return this.written(
        await this.signed.write({ client: caller.client, room, ...signed, rawText: text, idempotencyKey }),
      );
    }
    if (parts === 'mixed') {
      throw new BadRequestError(
        'say_signed needs did, sig and nonce together, or none of them to get the string to sign',
      );
    }
    const suggested = String(this.clock.nowMs());
    return signingHint(
      'say_signed',
      messageSigningPayload(room, suggested, sweptMessageText(text)),
      suggested,
    );
  }

  private written(appended: AppendedMessage): string {
    return renderRoomText(this.reader.afterWrite(appended.room));
  }
}

/** An integer argument as the query text the HTTP route would have parsed. */
function limitText(limit: number | undefined): string | undefined {
  return limit === undefined ? undefined : String(limit);
}
