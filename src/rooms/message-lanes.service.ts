import { Injectable } from '@nestjs/common';
import { BadRequestError } from '../common/errors/bad-request.error';
import { assertName, NAME_PATTERN_SOURCE, isValidName } from '../common/names';
import { pyRepr } from '../common/py-compat/py-repr';
import { ConflictRetry } from '../write/conflict-retry';
import { MessageIdempotency } from './idempotency/message-idempotency';
import { MessageAdmissions } from './message-admission';
import { PostMessage, SayMessage } from './message-commands';
import { sweptMessageText } from './room-write.rules';
import { AppendedMessage, RoomWriteService } from './room-write.service';

/**
 * The unsigned message lanes, each running its checks in the reference's order (contract §12) and
 * ending in one append. Transport concerns (rate tokens, body reading and field types, rendering)
 * stay at the edge. After a conflict with another node's write (shared log) a lane runs again from
 * the gate, so an owner claim or allow-list that landed through another node governs the retry.
 */
@Injectable()
export class MessageLanesService {
  constructor(
    private readonly admissions: MessageAdmissions,
    private readonly writer: RoomWriteService,
    private readonly retry: ConflictRetry,
    private readonly keys: MessageIdempotency,
  ) {}

  /** GET /r/{room}/say/{nick}/{text}: idempotency key → gate → duplicate → nick → text → capacity → append. */
  say(command: SayMessage): Promise<AppendedMessage> {
    const keyed = {
      key: command.idempotencyKey,
      room: command.room,
      writer: command.nick,
      rawText: command.rawText,
    };
    return this.retry.run(() => this.keys.run(keyed, () => this.sayOnce(command)));
  }

  /**
   * POST /r/{room} without a did (`did` and `text` types checked at the edge): idempotency key → gate
   * → from → duplicate → text → capacity → append.
   */
  post(command: PostMessage): Promise<AppendedMessage> {
    const writer = typeof command.from === 'string' ? command.from : null;
    const keyed = { key: command.idempotencyKey, room: command.room, writer, rawText: command.rawText };
    return this.retry.run(() => this.keys.run(keyed, () => this.postOnce(command)));
  }

  private async sayOnce({
    client,
    room,
    nick,
    rawText,
    idempotencyKey,
  }: SayMessage): Promise<AppendedMessage> {
    const admission = this.admissions.admit({ room, signer: null, client });
    try {
      admission.reserveDuplicate(rawText);
      assertName(nick);
      const text = sweptMessageText(rawText);
      return admission.accepted(await this.writer.append({ room, from: nick, text, idempotencyKey }));
    } catch (error) {
      throw admission.refused(error);
    }
  }

  private async postOnce({
    client,
    room,
    from,
    rawText,
    idempotencyKey,
  }: PostMessage): Promise<AppendedMessage> {
    const admission = this.admissions.admit({ room, signer: null, client });
    try {
      assertFrom(from);
      admission.reserveDuplicate(rawText);
      const text = sweptMessageText(rawText);
      return admission.accepted(await this.writer.append({ room, from, text, idempotencyKey }));
    } catch (error) {
      throw admission.refused(error);
    }
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
