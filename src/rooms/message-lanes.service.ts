import { Injectable } from '@nestjs/common';
import { BadRequestError } from '../common/errors/bad-request.error';
import { assertName, NAME_PATTERN_SOURCE, isValidName } from '../common/names';
import { pyRepr } from '../common/py-compat/py-repr';
import { stringField } from '../http/body/body-fields';
import { JsonObject } from '../http/body/json-object.parser';
import { AdmittedAppendService } from './admitted-append.service';
import { sweptMessageText } from './room-rules';
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
    private readonly admitted: AdmittedAppendService,
    private readonly signed: SignedMessageLaneService,
  ) {}

  /** GET /r/{room}/say/{nick}/{text}: gate → duplicate → nick → text → capacity → append. */
  say(client: string, room: string, nick: string, rawText: string): Promise<AppendedMessage> {
    return this.admitted.append({
      gate: { room, signer: null, client },
      dupeText: rawText,
      append: () => {
        assertName(nick);
        return this.writer.append({ room, from: nick, text: sweptMessageText(rawText) });
      },
    });
  }

  /** POST /r/{room}: `did` and `text` types first; a non-empty `did` selects the signed lane. */
  post(client: string, room: string, body: JsonObject): Promise<AppendedMessage> {
    const did = stringField(body, 'did').trim();
    const rawText = stringField(body, 'text');
    if (did !== '') return this.signed.post(client, room, did, rawText, body);
    return this.postUnsigned(client, room, rawText, body);
  }

  /** The unsigned POST: gate → from → duplicate → text → capacity → append. */
  private postUnsigned(
    client: string,
    room: string,
    rawText: string,
    body: JsonObject,
  ): Promise<AppendedMessage> {
    const from = body.from;
    return this.admitted.append({
      gate: { room, signer: null, client },
      beforeDuplicates: () => assertFrom(from),
      dupeText: rawText,
      // `from` was checked by assertFrom before the duplicate filter ran.
      append: () => this.writer.append({ room, from: from as string, text: sweptMessageText(rawText) }),
    });
  }
}

/** The unsigned POST's `from`: required, a string, and a valid name (contract §8.1 step 6). */
function assertFrom(from: unknown): asserts from is string {
  if (from === undefined)
    throw new BadRequestError('bad from: required (your nickname; or sign with did, sig, nonce)');
  if (typeof from !== 'string') throw new BadRequestError('bad from: must be a string');
  if (!isValidName(from))
    throw new BadRequestError(`bad from: ${pyRepr(from)} must match /${NAME_PATTERN_SOURCE}/`);
}
