import { Injectable } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { budgetFooter } from '../../access/budget-footer';
import { Replies } from '../../http/reply';
import { WatchView } from '../watch/watch-view';
import { renderWatchJson } from './watch-json.renderer';
import { renderWatchTextBytes } from './watch-text.renderer';

/** Writes /watch replies: text (with the budget footer when due) or JSON, never edge-cacheable (a cursor and a wait). */
@Injectable()
export class WatchPresenter {
  private readonly replies = new Replies(0);

  watch(reply: FastifyReply, view: WatchView, json: boolean): void {
    if (json) return this.replies.json(reply, renderWatchJson(view));
    const footer = budgetFooter(reply.request);
    this.replies.text(reply, renderWatchTextBytes(view, footer === null ? [] : [footer]));
  }
}
