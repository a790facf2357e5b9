import { Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../common/domain-error';
import { ERROR_STATUS } from '../http/error-status.table';
import { RateKind } from '../access/rate-bucket.decorator';
import { RateBuckets } from '../access/rate-buckets.service';
import { RateLimitedError } from '../access/rate-limited.error';

/** Who is calling a tool and over which connection (one MCP HTTP request). */
export interface ToolCaller {
  /** The client identity budgets are charged to (as for the HTTP routes). */
  readonly client: string;
  /** Base URL for documents (contract §15.2). */
  readonly base: string;
  /** Aborted when the HTTP request carrying the call goes away. */
  readonly signal: AbortSignal;
}

const logger = new Logger('McpTools');

/** A tool result holding one text block that ends with a newline, like the routes' bodies. */
export function textResult(body: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: body.endsWith('\n') ? body : `${body}\n` }], isError };
}

/**
 * Runs one tool call the way the HTTP route runs the same operation: the route's rate bucket is
 * charged first, then the service call; the reply is the route's text body. A refusal becomes an
 * `isError` result carrying the route's error body, status prefix included (contract §17).
 */
export async function runTool(
  buckets: RateBuckets,
  maxWait: number,
  caller: ToolCaller,
  kind: RateKind | null,
  work: () => string | Promise<string>,
): Promise<CallToolResult> {
  try {
    if (kind !== null) {
      const take = buckets.take(kind, caller.client);
      if (!take.granted) {
        const perMinute = buckets.perMinute(kind);
        throw new RateLimitedError({ kind, perMinute, waitSeconds: take.waitSeconds, maxWait });
      }
    }
    return textResult(await work());
  } catch (error) {
    if (error instanceof DomainError) return textResult(`${ERROR_STATUS[error.code]} ${error.message}`, true);
    logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return textResult('500 internal error: the server failed; nothing was changed by this request.', true);
  }
}
