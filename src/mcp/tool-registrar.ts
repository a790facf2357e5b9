import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { RateBuckets } from '../access/rate-buckets.service';
import { runTool, textResult, ToolCaller } from './tool-call';
import { McpToolName, toolBucket } from '../docs/mcp-tool-catalog';
import { describe } from './tool-schemas';

/** What a tool handler gets besides its arguments: set per request on `req.auth` (see McpService). */
interface HandlerExtra {
  readonly authInfo?: { readonly extra?: Record<string, unknown> };
}

/** The key under `req.auth.extra` carrying the ToolCaller of the request. */
export const CALLER_KEY = 'agent-chat.caller';

/** The auth info McpService puts on the request so tools registered once learn who calls. */
export function authFor(caller: ToolCaller): {
  token: string;
  clientId: string;
  scopes: string[];
  extra: object;
} {
  return { token: '', clientId: caller.client, scopes: [], extra: { [CALLER_KEY]: caller } };
}

/**
 * Registers the tools of one McpServer once (issue 18): handlers learn their caller from the request's
 * auth info instead of a per-request closure, so a server is built once and reused. Each tool's
 * argument object is parsed loosely and then checked here, so an argument the tool does not take is
 * refused by name, as the reference wrapper does ("unexpected arguments: …") — silently dropping it
 * would turn a misspelled `if_matches` into an unconditional overwrite. The published schema still
 * says `additionalProperties: false`.
 */
export class ToolRegistrar {
  constructor(
    private readonly server: McpServer,
    private readonly buckets: RateBuckets,
    private readonly maxWait: number,
  ) {}

  tool<S extends z.ZodRawShape>(
    name: McpToolName,
    shape: S,
    work: (args: z.output<z.ZodObject<S>>, caller: ToolCaller) => string | Promise<string>,
  ): void {
    const allowed = new Set(Object.keys(shape));
    const inputSchema = z.looseObject(shape).meta({ additionalProperties: false });
    const handler = (args: Record<string, unknown>, extra: HandlerExtra): Promise<CallToolResult> => {
      const unexpected = Object.keys(args).filter((key) => !allowed.has(key));
      if (unexpected.length > 0) return Promise.resolve(unexpectedArguments(name, unexpected, allowed));
      const caller = extra.authInfo?.extra?.[CALLER_KEY] as ToolCaller;
      const parsed = args as z.output<z.ZodObject<S>>;
      return runTool(this.buckets, this.maxWait, caller, toolBucket(name), () => work(parsed, caller));
    };
    this.server.registerTool(name, { description: describe(name), inputSchema }, handler as never);
  }
}

function unexpectedArguments(name: string, unexpected: string[], allowed: Set<string>): CallToolResult {
  const takes = allowed.size === 0 ? 'no arguments' : `only ${[...allowed].join(', ')}`;
  return textResult(`unexpected arguments: ${unexpected.join(', ')} (${name} takes ${takes})`, true);
}
