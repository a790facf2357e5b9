import { Injectable } from '@nestjs/common';
import { nonceDigits } from '../identity/nonce';
import { assertSignature } from '../identity/signature-check';
import { SignatureVerifier } from '../identity/signature-verifier.service';
import { messageSigningPayload } from '../identity/signing-payload';
import { ConflictRetry } from '../write/conflict-retry';
import { MessageIdempotency } from './idempotency/message-idempotency';
import { MessageAdmissions } from './message-admission';
import { SignedMessage } from './message-commands';
import { sweptMessageText } from './room-write.rules';
import { AppendedMessage, MessageSignature, RoomWriteService } from './room-write.service';

/**
 * The signed message lane (contract §8.1, §8.6), for GET say-signed and for POST with a did (whose
 * field types the edge checked): text sweep → nonce, did, signature encoding → verification over
 * `room|nonce|text` (403 with the canonical string) → idempotency key (a retry answers like its write;
 * the key is scoped to the verified did) → room gate → duplicate filter (on the swept text)
 * → append, where capacity and the stale-nonce rule run last. The record's `from` is the full did:key;
 * the nonce is stored as an integer. `from` in a POST body is ignored.
 */
@Injectable()
export class SignedMessageLaneService {
  constructor(
    private readonly verifier: SignatureVerifier,
    private readonly admissions: MessageAdmissions,
    private readonly writer: RoomWriteService,
    private readonly retry: ConflictRetry,
    private readonly keys: MessageIdempotency,
  ) {}

  async write(command: SignedMessage): Promise<AppendedMessage> {
    const { room } = command;
    const text = sweptMessageText(command.rawText);
    await assertSignature(this.verifier, command, (nonceAsSent) =>
      messageSigningPayload(room, nonceAsSent, text),
    );
    // From the idempotency key on, all of it again after a conflict with another node's write
    // (ConflictRetry). A retry of a signed write that landed answers here, before the stale-nonce rule.
    const signature = { nonceDigits: nonceDigits(command.nonce), sig: command.sig };
    const keyed = { key: command.idempotencyKey, room, writer: command.did, rawText: command.rawText };
    return this.retry.run(() => this.keys.run(keyed, () => this.admitAndAppend(command, text, signature)));
  }

  private async admitAndAppend(
    command: SignedMessage,
    text: string,
    signature: MessageSignature,
  ): Promise<AppendedMessage> {
    const { client, room, did, idempotencyKey } = command;
    const admission = this.admissions.admit({ room, signer: did, client });
    try {
      admission.reserveDuplicate(text);
      return admission.accepted(
        await this.writer.append({ room, from: did, text, signature, idempotencyKey }),
      );
    } catch (error) {
      throw admission.refused(error);
    }
  }
}
