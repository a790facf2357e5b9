import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { resolveBaseUrl } from '../../docs/base-url';
import { readJsonBody } from '../../http/body/body-reader';
import { clientOf } from '../../http/client-identity';
import { McpMeter } from '../mcp-meter';
import { McpService } from '../mcp.service';

/**
 * POST /mcp: the body is read like every POST body (cap and upload deadline, 413/408/400 as text), then
 * the meter charges the read tokens of its JSON-RPC messages (a 429 is the usual text reply), then
 * the reply is handed to the MCP SDK on the raw Node response; each tool call of a metered tool spends
 * the token its HTTP route would instead. GET and DELETE are 405 (stateless: no
 * standalone stream, no session to delete).
 */
@Controller('mcp')
export class McpController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mcp: McpService,
    private readonly meter: McpMeter,
  ) {}

  @Post()
  async post(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const body = await readJsonBody(req, res);
    const caller = { client: clientOf(req), base: resolveBaseUrl(this.config.publicUrl, req) };
    this.meter.charge(caller.client, body);
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (value !== undefined) res.raw.setHeader(name, value); // e.g. CORS headers set by the hooks
    }
    res.hijack();
    await this.mcp.handle(req.raw, res.raw, body, caller);
  }
}
