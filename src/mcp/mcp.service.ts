import { Injectable, Logger } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { IncomingMessage, ServerResponse } from 'node:http';
import { McpServerPool } from './mcp-server-pool';
import { ToolCaller } from './tool-call';
import { authFor } from './tool-registrar';

/**
 * The MCP endpoint (contract §17, served here rather than by a separate wrapper): one stateless
 * streamable-HTTP exchange per request, as the SDK's stateless mode intends — a fresh transport per
 * request, so no session outlives it — on a server borrowed from the pool, whose tools (registered
 * once) call the same services as the HTTP routes and learn their caller from the request's auth info.
 */
@Injectable()
export class McpService {
  private readonly logger = new Logger('Mcp');

  constructor(private readonly pool: McpServerPool) {}

  /** Answers one JSON-RPC message (or batch) already read from the request body. */
  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    caller: Omit<ToolCaller, 'signal'>,
  ): Promise<void> {
    const gone = new AbortController();
    const server = this.pool.borrow();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    let returned = false;
    const giveBack = (): void => {
      if (returned) return;
      returned = true;
      void server.close().then(() => this.pool.giveBack(server));
    };
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
      giveBack();
    });
    (req as IncomingMessage & { auth?: unknown }).auth = authFor({ ...caller, signal: gone.signal });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      // A client that hangs up mid-exchange is routine, not a server fault.
      if (gone.signal.aborted || res.destroyed) this.logger.debug(`client went away: ${message}`);
      else this.logger.error(message);
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('500 internal error: the server failed; nothing was changed by this request.\n');
      }
      giveBack();
    }
  }
}
