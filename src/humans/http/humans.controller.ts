import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { RouteNotFoundError } from '../../common/errors/route-not-found.error';
import { resolveBaseUrl } from '../../docs/base-url';
import { CompressedBody } from '../../http/compression/compressed-body';
import { sendEncoded } from '../../http/compression/encoded-send';
import { linkHeader } from '../../docs/http/document.presenter';
import { addVary } from '../../http/vary';
import { HUMANS_CSP, HUMANS_PAGE, HUMANS_SCRIPT_ASSET, HUMANS_STYLE_ASSET } from '../humans-assets';

/** Hashed names never change meaning: a year, and no revalidation. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * `/humans` (contract §1.2, §15): one static page for people, and its two content-hashed assets. No
 * @RateBucket (documents are free, like the reference); what the page does goes through the public
 * lanes with their guards, so a 429 or 422 reaches the reader as the API's own message.
 */
@Controller('humans')
export class HumansController {
  private readonly page = new CompressedBody(HUMANS_PAGE);
  private readonly assets = new Map(
    [HUMANS_SCRIPT_ASSET, HUMANS_STYLE_ASSET].map((asset) => [
      asset.path.slice('/humans/'.length),
      { contentType: asset.contentType, body: new CompressedBody(asset.body) },
    ]),
  );
  private readonly pageCache: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const s = config.staticCacheSeconds;
    this.pageCache = s > 0 ? `public, max-age=0, s-maxage=${s}, stale-while-revalidate=60` : 'no-store';
  }

  @Get()
  humans(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    if (this.config.publicUrl === '') addVary(res, 'Host');
    res
      .code(200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', this.pageCache)
      .header('content-security-policy', HUMANS_CSP)
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header('link', linkHeader(resolveBaseUrl(this.config.publicUrl, req)));
    sendEncoded(res, this.page);
  }

  @Get(':asset')
  asset(@Param('asset') name: string, @Res() res: FastifyReply): void {
    const asset = this.assets.get(name);
    if (asset === undefined) throw new RouteNotFoundError();
    res
      .code(200)
      .header('content-type', asset.contentType)
      .header('cache-control', IMMUTABLE)
      .header('x-content-type-options', 'nosniff');
    sendEncoded(res, asset.body);
  }
}
