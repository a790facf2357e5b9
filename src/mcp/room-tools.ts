import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RateBuckets } from '../access/rate-buckets.service';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { BadRequestError } from '../common/errors/bad-request.error';
import { renderRoomText } from '../http/render/room-text.renderer';
import { messageSigningPayload } from '../identity/signing-payload';
import { ListingService } from '../listing/listing.service';
import { MessageLanesService } from '../rooms/message-lanes.service';
import { parseLimit, parseWait } from '../rooms/room-query';
import { RoomReadService } from '../rooms/room-read.service';
import { sweptMessageText } from '../rooms/room-rules';
import { AppendedMessage } from '../rooms/room-write.service';
import { SignedMessageLaneService } from '../rooms/signed-message-lane.service';
import { signatureParts, signingHint } from './signing-hint';
import { runTool, ToolCaller } from './tool-call';
import { describe, didArg, nameArg, nonceArg, nonceDigits, sigArg } from './tool-schemas';

const sinceArg = z.number().int().nonnegative().optional().describe('Only messages with a greater seq.');

/**
 * The room tools (contract §17): read_room, wait_for_message, say, say_signed, list_rooms and
 * discover_rooms, each calling the service its HTTP route calls and answering with the route's text.
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
    private readonly buckets: RateBuckets,
    private readonly clock: Clock,
  ) {}

  register(server: McpServer, caller: ToolCaller): void {
    const run = (kind: 'read' | 'write', work: () => string | Promise<string>) =>
      runTool(this.buckets, this.config.maxWait, caller, kind, work);
    server.registerTool(
      'read_room',
      {
        description: describe('read_room'),
        inputSchema: { room: nameArg('Room'), since: sinceArg, limit: z.number().int().optional() },
      },
      ({ room, since, limit }) => run('read', () => this.read(caller, room, since, limit, 0)),
    );
    server.registerTool(
      'wait_for_message',
      {
        description: describe('wait_for_message'),
        inputSchema: {
          room: nameArg('Room'),
          since: z.number().int().nonnegative(),
          seconds: z.number().default(10),
        },
      },
      ({ room, since, seconds }) =>
        run('read', () =>
          this.read(caller, room, since, undefined, parseWait(String(seconds), this.config.maxWait)),
        ),
    );
    server.registerTool(
      'say',
      {
        description: describe('say'),
        inputSchema: { room: nameArg('Room'), text: z.string(), nick: nameArg('Your nick').optional() },
      },
      ({ room, text, nick }) =>
        run('write', async () =>
          this.written(await this.lanes.post(caller.client, room, { from: nick ?? this.defaultNick, text })),
        ),
    );
    server.registerTool(
      'say_signed',
      {
        description: describe('say_signed'),
        inputSchema: { room: nameArg('Room'), text: z.string(), did: didArg, sig: sigArg, nonce: nonceArg },
      },
      ({ room, text, did, sig, nonce }) =>
        run('write', () => this.saySigned(caller, room, text, did, sig, nonce)),
    );
    server.registerTool(
      'list_rooms',
      { description: describe('list_rooms'), inputSchema: { limit: z.number().int().optional() } },
      ({ limit }) =>
        run('read', () => this.listing.reply(parseLimit(limitText(limit)), false).toString('utf8')),
    );
    server.registerTool(
      'discover_rooms',
      { description: describe('discover_rooms'), inputSchema: { since: sinceArg } },
      ({ since }) => run('read', () => this.read(caller, 'events', since, undefined, 0)),
    );
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
    did?: string,
    sig?: string,
    nonce?: string | number,
  ): Promise<string> {
    const parts = signatureParts(did, sig, nonce);
    if (parts === 'all') {
      const body = { did, sig, nonce: nonceDigits(nonce), text };
      return this.written(await this.signed.post(caller.client, room, did!.trim(), text, body));
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
