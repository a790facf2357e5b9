import { Injectable } from '@nestjs/common';
import { BadRequestError } from '../common/errors/bad-request.error';
import { assertName, NAME_PATTERN_SOURCE, isValidName } from '../common/names';
import { pyRepr } from '../common/py-repr';
import { JsonObject } from '../http/body/json-object.parser';
import { sweptMessageText } from './room-rules';
import { RoomWriteGate } from './room-write-gate';
import { AppendedMessage, RoomWriteService } from './room-write.service';
import { SignedMessageLaneService } from './signed-message-lane.service';

/**
 * The unsigned message lanes, each running its checks in the reference's order (contract §12) and
 * ending in one append. Transport concerns (rate tokens, body reading, rendering) stay outside.
 */
@Injectable()
export class MessageLanesService {
  constructor(
    private readonly writer: RoomWriteService,
    private readonly gate: RoomWriteGate,
    private readonly signed: SignedMessageLaneService,
  ) {}

  /** GET /r/{room}/say/{nick}/{text}: gate → nick → text → capacity → append. */
  say(client: string, room: string, nick: string, rawText: string): Promise<AppendedMessage> {
    this.gate.admit({ room, signer: null, client });
    assertName(nick);
    const text = sweptMessageText(rawText);
    return this.writer.append({ room, from: nick, text });
  }

  /** POST /r/{room}: `did` and `text` types first; a non-empty `did` selects the signed lane. */
  post(client: string, room: string, body: JsonObject): Promise<AppendedMessage> {
    const did = stringField(body, 'did').trim();
    const rawText = stringField(body, 'text');
    if (did !== '') return this.signed.post(client, room, did, rawText, body);
    return this.postUnsigned(client, room, rawText, body);
  }

  /** The unsigned POST: gate → from → text → capacity → append. */
  private postUnsigned(client: string, room: string, rawText: string, body: JsonObject): Promise<AppendedMessage> {
    this.gate.admit({ room, signer: null, client });
    const from = body.from;
    if (from === undefined) throw new BadRequestError('bad from: required (your nickname; or sign with did, sig, nonce)');
    if (typeof from !== 'string') throw new BadRequestError('bad from: must be a string');
    if (!isValidName(from)) throw new BadRequestError(`bad from: ${pyRepr(from)} must match /${NAME_PATTERN_SOURCE}/`);
    const text = sweptMessageText(rawText);
    return this.writer.append({ room, from, text });
  }
}

/** A body field that must be a string when present (absent reads as empty); never coerced (§8.1). */
export function stringField(body: JsonObject, name: string): string {
  const value = body[name];
  if (value === undefined) return '';
  if (typeof value !== 'string') throw new BadRequestError(`bad ${name}: must be a string`);
  return value;
}
