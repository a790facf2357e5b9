import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { AppConfig, FIXED_LIMITS } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { BadRequestError } from '../common/errors/bad-request.error';
import { renderNoteAckText, renderNoteListText, renderNoteText } from '../notes/http/note.renderer';
import { noteSigningPayload } from '../identity/signing-payload';
import { parseNotePost } from '../notes/http/note-post.parser';
import { NoteLanesService } from '../notes/note-lanes.service';
import { NoteReadService } from '../notes/note-read.service';
import { sweptNoteValue } from '../notes/note-write.rules';
import { NotesProjection } from '../notes/notes.projection';
import { SignedNoteLaneService } from '../notes/signed-note-lane.service';
import { ROOM_ALLOW, ROOM_NONCE, ROOM_OWNERS } from '../ownership/reserved-namespaces';
import { parseLimit } from '../rooms/http/room-query';
import { signatureParts, signingHint } from './signing-hint';
import { ToolRegistrar } from './tool-registrar';
import { didArg, idempotencyKeyArg, nameArg, nonceArg, nonceDigits, sigArg } from './tool-schemas';
import { parseIdempotencyKey } from '../write/idempotency/idempotency-key';

/** A signed ownership write as the tools receive it. */
interface OwnershipWrite {
  readonly tool: 'claim_room' | 'set_room_allow';
  readonly ns: string;
  readonly room: string;
  /** The value to store; for a claim, the claimer's did (unknown until it is given). */
  readonly value: string | undefined;
  readonly did?: string;
  readonly sig?: string;
  readonly nonce?: string | number;
  readonly ifAbsent: boolean;
  readonly idempotency_key?: string;
}

/**
 * The note tools (contract §17): read_note, write_note, list_notes, claim_room and set_room_allow,
 * calling the services of the /kv routes and answering with their text bodies.
 */
@Injectable()
export class NoteTools {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reader: NoteReadService,
    private readonly lanes: NoteLanesService,
    private readonly signed: SignedNoteLaneService,
    private readonly notes: NotesProjection,
    private readonly clock: Clock,
  ) {}

  register(tools: ToolRegistrar): void {
    const ns = nameArg('Note namespace');
    const key = nameArg('Note key');
    tools.tool('read_note', { namespace: ns, key }, (a) =>
      renderNoteText(this.reader.read(a.namespace, a.key).value),
    );
    tools.tool(
      'write_note',
      {
        namespace: ns,
        key,
        value: z.string(),
        if_matches: z.string().optional().describe('Write only if the note holds exactly this value.'),
        if_absent: z.boolean().default(false).describe('Write only if there is no note yet.'),
        idempotency_key: idempotencyKeyArg,
      },
      async (a) => {
        const conditions = { if: a.if_matches, if_absent: a.if_absent ? '1' : undefined };
        const idempotencyKey = parseIdempotencyKey(undefined, a.idempotency_key);
        const write = {
          ns: a.namespace,
          key: a.key,
          value: sweptNoteValue(a.value),
          conditions,
          idempotencyKey,
        };
        return renderNoteAckText(await this.lanes.post(write));
      },
    );
    tools.tool('list_notes', { namespace: ns, limit: z.number().int().optional() }, (a) =>
      this.list(a.namespace, a.limit),
    );
    tools.tool(
      'claim_room',
      {
        room: nameArg('A d- room'),
        did: didArg,
        sig: sigArg,
        nonce: nonceArg,
        idempotency_key: idempotencyKeyArg,
      },
      (a) => this.ownership({ tool: 'claim_room', ns: ROOM_OWNERS, value: a.did, ifAbsent: true, ...a }),
    );
    tools.tool(
      'set_room_allow',
      {
        room: nameArg('Your d- room'),
        dids: z.string().describe('Space-separated did:keys allowed to post.'),
        did: didArg,
        sig: sigArg,
        nonce: nonceArg,
        idempotency_key: idempotencyKeyArg,
      },
      (a) => this.ownership({ tool: 'set_room_allow', ns: ROOM_ALLOW, value: a.dids, ifAbsent: false, ...a }),
    );
  }

  /** The listing, cut to `limit` (default 50, at most 200) with a trailer saying how many exist. */
  private list(ns: string, limit: number | undefined): string {
    const keys = this.reader.list(ns);
    const shown = keys.slice(0, parseLimit(limit === undefined ? undefined : String(limit)));
    const body = renderNoteListText(ns, shown);
    if (shown.length === keys.length) return body;
    return `${body}# ${shown.length} of ${keys.length} keys shown; raise limit (at most ${FIXED_LIMITS.readMaxLimit}) or read GET /kv/${ns}\n`;
  }

  private async ownership(write: OwnershipWrite): Promise<string> {
    const parts = signatureParts(write.did, write.sig, write.nonce);
    if (parts === 'all') {
      const body = {
        value: write.value,
        did: write.did,
        sig: write.sig,
        nonce: nonceDigits(write.nonce),
        if_absent: write.ifAbsent ? '1' : undefined,
      };
      // Parsed as the POST route parses its body, so a blank did takes the unsigned lane there too.
      const post = parseNotePost(
        body,
        write.ns,
        write.room,
        parseIdempotencyKey(undefined, write.idempotency_key),
      );
      const ack =
        post.lane === 'signed' ? await this.signed.post(post.command) : await this.lanes.post(post.command);
      return renderNoteAckText(ack);
    }
    if (parts === 'mixed') {
      throw new BadRequestError(
        `${write.tool} needs did, sig and nonce together, or only did to get the string to sign`,
      );
    }
    const counter = this.notes.get(ROOM_NONCE, write.room)?.value;
    const floor = counter !== undefined && /^\d+$/.test(counter) ? BigInt(counter) + 1n : 0n;
    const now = BigInt(this.clock.nowMs());
    const nonce = (now > floor ? now : floor).toString();
    const value = write.value === undefined ? '<your did>' : sweptNoteValue(write.value);
    return signingHint(write.tool, noteSigningPayload(write.ns, write.room, nonce, value), nonce);
  }
}
