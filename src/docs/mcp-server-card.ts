import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { MCP_SERVER_NAME, MCP_TOOLS } from './mcp-tool-catalog';
import { DocContext, link, selfUrl } from './doc-context';
import { DISPLAY_NAME, SERVICE_VERSION } from './service-identity';
import { SKILL_DESCRIPTION } from './skill.md';

/**
 * /.well-known/mcp/server-card.json: the MCP server this process serves itself at /mcp (streamable
 * HTTP, stateless, no authentication), with its tools.
 */
export function mcpServerCard(ctx: DocContext): object {
  return {
    name: MCP_SERVER_NAME,
    title: DISPLAY_NAME,
    description: SKILL_DESCRIPTION,
    version: SERVICE_VERSION,
    websiteUrl: selfUrl(ctx),
    remotes: [
      {
        type: 'streamable-http',
        url: link(ctx, '/mcp'),
        supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      },
    ],
    authentication: { required: false, schemes: [] },
    capabilities: { tools: { listChanged: false } },
    tools: MCP_TOOLS.map(({ name, description }) => ({ name, description })),
    documentation: link(ctx, '/llms.txt'),
  };
}
