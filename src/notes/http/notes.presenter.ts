import { Inject, Injectable } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { budgetFooter } from '../../access/budget-footer';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { NoteWriteAck } from '../note-write.service';
import {
  renderNoteAckJson,
  renderNoteAckText,
  renderNoteListJson,
  renderNoteListText,
  renderNoteText,
} from './note.renderer';
import { CachePolicy, Replies } from '../../http/reply';

/**
 * Chooses the representation of note replies and writes them (contract §10, §1.4). Text replies get
 * the caller's `# budget:` line when one is due (§13.3), which also makes a read unshareable.
 */
@Injectable()
export class NotesPresenter {
  private readonly replies: Replies;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.replies = new Replies(config.edgeCacheSeconds);
  }

  /** A note read: text only (`format=json` is ignored here), shareable at the edge. */
  note(reply: FastifyReply, value: string): void {
    this.text(reply, renderNoteText(value), 'shareable');
  }

  /** A namespace listing: shareable, text or JSON. */
  list(reply: FastifyReply, ns: string, keys: readonly string[], json: boolean): void {
    if (json) this.replies.json(reply, renderNoteListJson(ns, keys), 'shareable');
    else this.text(reply, renderNoteListText(ns, keys), 'shareable');
  }

  /** A write ack: never cached. */
  written(reply: FastifyReply, ack: NoteWriteAck, json: boolean): void {
    if (json) this.replies.json(reply, renderNoteAckJson(ack));
    else this.text(reply, renderNoteAckText(ack), 'no-store');
  }

  /** Bodies end with one newline; the footer is one more line after them. */
  private text(reply: FastifyReply, body: string, cache: CachePolicy): void {
    const footer = budgetFooter(reply.request);
    if (footer === null) this.replies.text(reply, body, cache);
    else this.replies.text(reply, `${body}${footer}\n`, 'no-store');
  }
}
