import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { RouteNotFoundError } from '../../common/errors/route-not-found.error';
import { DocumentPresenter } from './document.presenter';
import { resolveBaseUrl } from '../base-url';
import { DOCUMENTS, DocumentName } from '../document-registry';
import { DocumentsService } from '../documents.service';

/**
 * The companion documents (contract §15). No @RateBucket: documents are never rate limited. A document
 * this deployment does not publish (security.txt without a contact, the sitemap without a known
 * origin) answers like an unknown path.
 */
@Controller()
export class DocumentsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly documents: DocumentsService,
    private readonly presenter: DocumentPresenter,
  ) {}

  @Get(['/', 'llms.txt'])
  manual(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('manual', req, res);
  }

  @Get('skill.md') skill(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('skill', req, res);
  }

  @Get('patterns.md') patterns(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('patterns', req, res);
  }

  @Get('interop.md') interop(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('interop', req, res);
  }

  @Get('auth.md') auth(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('auth', req, res);
  }

  @Get('openapi.json') openapi(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('openapi', req, res);
  }

  @Get('config') effectiveConfig(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('config', req, res);
  }

  @Get('.well-known/agent.json') agent(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('agent', req, res);
  }

  @Get('.well-known/api-catalog') apiCatalog(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('apiCatalog', req, res);
  }

  @Get('.well-known/agent-skills/index.json')
  agentSkills(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('agentSkills', req, res);
  }

  @Get('.well-known/ai-catalog.json') aiCatalog(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('aiCatalog', req, res);
  }

  @Get('.well-known/mcp/server-card.json')
  mcpCard(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('mcpCard', req, res);
  }

  @Get('.well-known/security.txt') security(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('security', req, res);
  }

  @Get('robots.txt') robots(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('robots', req, res);
  }

  @Get('sitemap.xml') sitemap(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    this.serve('sitemap', req, res);
  }

  private serve(name: DocumentName, req: FastifyRequest, res: FastifyReply): void {
    const base = resolveBaseUrl(this.config.publicUrl, req);
    const body = this.documents.bytes(name, base);
    if (body === null) throw new RouteNotFoundError();
    this.presenter.send(res, DOCUMENTS[name].kind, body, base);
  }
}
