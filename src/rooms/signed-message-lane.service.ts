import { Injectable } from '@nestjs/common';
import { trimmedStringField } from '../http/body/body-fields';
import { JsonObject } from '../http/body/json-object.parser';
import { nonceDigits } from '../identity/nonce';
import { assertSignature } from '../identity/signature-check';
import { SignatureVerifier } from '../identity/signature-verifier.service';
import { messageSigningPayload } from '../identity/signing-payload';
import { AdmittedAppendService } from './admitted-append.service';
import { sweptMessageText } from './room-rules';
import { AppendedMessage, RoomWriteService } from './room-write.service';

/**
 * The signed message lane (contract §8.1, §8.6): text sweep → nonce, did, signature encoding →
 * verification over `room|nonce|text` (403 with the canonical string) → room gate → duplicate filter
 * (on the swept text) → append, where the stale-nonce rule runs last. The record's `from` is the full did:key; the nonce is stored as an integer.
 */
@Injectable()
export class SignedMessageLaneService {
  constructor(
    private readonly writer: RoomWriteService,
    private readonly admitted: AdmittedAppendService,
    private readonly verifier: SignatureVerifier,
  ) {}

  /** GET /r/{room}/say-signed/{did}/{sig}/{nonce}/{text}. */
  say(
    client: string,
    room: string,
    did: string,
    sig: string,
    nonce: string,
    rawText: string,
  ): Promise<AppendedMessage> {
    const text = sweptMessageText(rawText);
    return this.append(client, room, { did, sig, nonce }, text);
  }

  /** POST /r/{room} with a non-empty `did` (already type-checked and trimmed); `from` is ignored. */
  post(
    client: string,
    room: string,
    did: string,
    rawText: string,
    body: JsonObject,
  ): Promise<AppendedMessage> {
    const sig = trimmedStringField(body, 'sig');
    const nonce = trimmedStringField(body, 'nonce');
    const text = sweptMessageText(rawText);
    return this.append(client, room, { did, sig, nonce }, text);
  }

  private async append(
    client: string,
    room: string,
    signed: { did: string; sig: string; nonce: string },
    text: string,
  ): Promise<AppendedMessage> {
    await assertSignature(this.verifier, signed, (nonceAsSent) =>
      messageSigningPayload(room, nonceAsSent, text),
    );
    return this.admitted.append({
      gate: { room, signer: signed.did, client },
      dupeText: text,
      append: () =>
        this.writer.append({
          room,
          from: signed.did,
          text,
          signature: { nonceDigits: nonceDigits(signed.nonce), sig: signed.sig },
        }),
    });
  }
}
