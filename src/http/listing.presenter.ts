import { Inject, Injectable } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { budgetFooter } from '../access/budget-footer';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Replies } from './reply';

/**
 * Writes `/rooms` replies (contract §1.4, §11): shareable at the edge unless the text carries the
 * caller's `# budget:` footer, which is appended to the cached rendering per request (JSON never has it).
 */
@Injectable()
export class ListingPresenter {
  private readonly replies: Replies;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.replies = new Replies(config.edgeCacheSeconds);
  }

  listing(reply: FastifyReply, body: Buffer, json: boolean): void {
    if (json) return this.replies.json(reply, body, 'shareable');
    const footer = budgetFooter(reply.request);
    if (footer === null) return this.replies.text(reply, body, 'shareable');
    this.replies.text(reply, Buffer.concat([body, Buffer.from(`${footer}\n`, 'utf8')]), 'no-store');
  }
}
