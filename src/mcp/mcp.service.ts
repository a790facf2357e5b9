import { Injectable, Logger } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { IncomingMessage, ServerResponse } from 'node:http';
import { SERVICE_VERSION } from '../docs/service-identity';
import { MetaTools } from './meta-tools';
import { NoteTools } from './note-tools';
import { RoomTools } from './room-tools';
import { ToolCaller } from './tool-call';
import { MCP_SERVER_NAME } from './tool-catalog';

/**
 * The MCP endpoint (contract §17, served here rather than by a separate wrapper): one stateless
 * streamable-HTTP exchange per request, as the SDK's stateless mode intends — a fresh McpServer and
 * transport per request, so nothing outlives it — with the tools calling the same services as the
 * HTTP routes in this process.
 */
@Injectable()
export class McpService {
  private readonly logger = new Logger('Mcp');

  constructor(
    private readonly rooms: RoomTools,
    private readonly notes: NoteTools,
    private readonly meta: MetaTools,
  ) {}

  /** Answers one JSON-RPC message already read from the request body. */
  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    caller: Omit<ToolCaller, 'signal'>,
  ): Promise<void> {
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const server = new McpServer({ name: MCP_SERVER_NAME, version: SERVICE_VERSION });
    const withSignal: ToolCaller = { ...caller, signal: gone.signal };
    this.rooms.register(server, withSignal);
    this.notes.register(server, withSignal);
    this.meta.register(server, withSignal);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('500 internal error: the server failed; nothing was changed by this request.\n');
    }
  }
}
