import { Inject, Injectable } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { budgetFooter } from '../../access/budget-footer';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { CompressedBodyMemo } from '../../http/compression/compressed-body';
import { Replies } from '../../http/reply';

/**
 * Writes `/rooms` replies (contract §1.4, §11): shareable at the edge unless the text carries the
 * caller's `# budget:` footer, which is appended to the cached rendering per request (JSON never has it).
 * ListingService hands out the same Buffer while a rendering is valid, so each coding is compressed
 * once per rendering.
 */
@Injectable()
export class ListingPresenter {
  private readonly replies: Replies;
  private readonly compressed = new CompressedBodyMemo();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.replies = new Replies(config.edgeCacheSeconds);
  }

  listing(reply: FastifyReply, body: Buffer, json: boolean): void {
    if (json) return this.replies.json(reply, this.compressed.of(body), 'shareable');
    const footer = budgetFooter(reply.request);
    if (footer === null) return this.replies.text(reply, this.compressed.of(body), 'shareable');
    this.replies.text(reply, Buffer.concat([body, Buffer.from(`${footer}\n`, 'utf8')]), 'no-store');
  }
}
