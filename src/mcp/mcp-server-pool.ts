import { Inject, Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RateBuckets } from '../access/rate-buckets.service';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { SERVICE_VERSION } from '../docs/service-identity';
import { MetaTools } from './meta-tools';
import { NoteTools } from './note-tools';
import { RoomTools } from './room-tools';
import { MCP_SERVER_NAME } from '../docs/mcp-tool-catalog';
import { ToolRegistrar } from './tool-registrar';
import { WatchTools } from './watch-tools';

/** Idle servers kept for reuse; more than this many concurrent exchanges build servers that are dropped. */
const MAX_IDLE = 16;

/**
 * McpServers with the 14 tools registered once each (issue 18). The SDK binds a server to one
 * transport at a time, and a stateless exchange needs its own transport, so concurrent exchanges need
 * distinct servers: each exchange borrows one and gives it back closed. Building a server (13 tool
 * registrations with their schemas) cost ~1.6 ms CPU per request before; now it happens only when
 * more exchanges run at once than ever before, up to MAX_IDLE kept.
 */
@Injectable()
export class McpServerPool {
  private readonly idle: McpServer[] = [];
  private builtCount = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rooms: RoomTools,
    private readonly notes: NoteTools,
    private readonly meta: MetaTools,
    private readonly watch: WatchTools,
    private readonly buckets: RateBuckets,
  ) {}

  /** Servers built since start (the e2e test pins that a flood reuses them). */
  get built(): number {
    return this.builtCount;
  }

  borrow(): McpServer {
    return this.idle.pop() ?? this.build();
  }

  /** Takes back a server whose transport is closed. */
  giveBack(server: McpServer): void {
    if (this.idle.length < MAX_IDLE) this.idle.push(server);
  }

  private build(): McpServer {
    this.builtCount++;
    const server = new McpServer({ name: MCP_SERVER_NAME, version: SERVICE_VERSION });
    const tools = new ToolRegistrar(server, this.buckets, this.config.maxWait);
    this.rooms.register(tools);
    this.watch.register(tools);
    this.notes.register(tools);
    this.meta.register(tools);
    return server;
  }
}
