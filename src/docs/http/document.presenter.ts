import { Inject, Injectable } from '@nestjs/common';
import { addVary } from '../../http/vary';
import { FastifyReply } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { DocumentKind } from '../document-registry';
import { prefersMarkdown } from '../markdown-negotiation';
import { CompressedBodyMemo } from '../../http/compression/compressed-body';
import { sendEncoded } from '../../http/compression/encoded-send';

const CONTENT_TYPES: Readonly<Record<Exclude<DocumentKind, 'markdown'>, string>> = {
  text: 'text/plain; charset=utf-8',
  json: 'application/json',
  linkset: 'application/linkset+json',
  xml: 'application/xml',
};

/** The RFC 8288 pointers every text document carries (contract §1.4). */
export function linkHeader(base: string): string {
  return (
    `<${base}/openapi.json>; rel="service-desc"; type="application/json", ` +
    `<${base}/llms.txt>; rel="service-doc"; type="text/plain", ` +
    `<${base}/.well-known/api-catalog>; rel="api-catalog"; type="application/linkset+json"`
  );
}

/**
 * Headers of the companion documents (contract §1.2, §1.4): edge-cacheable for
 * CHAT_STATIC_CACHE_SECONDS, `Vary: Host` when the base URL comes from the Host header, `Vary: Accept`
 * on the four markdown documents (whose markdown-labelled answer is never cached), the `Link` header on
 * text documents, and no `X-Robots-Tag` — documents are meant to be indexed. DocumentsService keeps
 * one Buffer per document and base URL, so each coding is compressed once per rendering.
 */
@Injectable()
export class DocumentPresenter {
  private readonly cacheable: string;
  private readonly varyHost: boolean;
  private readonly compressed = new CompressedBodyMemo();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const s = config.staticCacheSeconds;
    this.cacheable = s > 0 ? `public, max-age=0, s-maxage=${s}, stale-while-revalidate=60` : 'no-store';
    this.varyHost = config.publicUrl === '';
  }

  send(reply: FastifyReply, kind: DocumentKind, body: Buffer, base: string): void {
    const markdown = kind === 'markdown' && prefersMarkdown(reply.request.headers.accept);
    addVary(reply, ...(kind === 'markdown' ? ['Accept'] : []), ...(this.varyHost ? ['Host'] : []));
    if (kind === 'text' || kind === 'markdown') reply.header('link', linkHeader(base));
    reply
      .code(200)
      .header(
        'content-type',
        kind === 'markdown' ? `text/${markdown ? 'markdown' : 'plain'}; charset=utf-8` : CONTENT_TYPES[kind],
      )
      .header('cache-control', markdown ? 'no-store' : this.cacheable)
      .header('x-content-type-options', 'nosniff');
    sendEncoded(reply, this.compressed.of(body));
  }
}
