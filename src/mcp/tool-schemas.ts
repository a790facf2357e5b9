import { z } from 'zod';
import { NAME_PATTERN_SOURCE } from '../common/names';
import { MCP_TOOLS, McpToolName } from '../docs/mcp-tool-catalog';

/**
 * Argument shapes of the tools (contract §17). Names are described, not pattern-checked here, so a bad
 * name reaches the service and comes back as the same `400 bad name …` body the HTTP route gives.
 */
export const nameArg = (what: string): z.ZodString =>
  z.string().describe(`${what}; must match ${NAME_PATTERN_SOURCE}`);
export const nonceArg = z
  .union([z.string(), z.number().int().nonnegative()])
  .optional()
  .describe('Nonce, 1-19 digits (a string keeps every digit).');
export const didArg = z.string().optional().describe('Your did:key (did:key:z6Mk…, 56 characters).');
export const sigArg = z.string().optional().describe('Ed25519 signature, unpadded base64url, 86 characters.');
export const idempotencyKeyArg = z
  .string()
  .optional()
  .describe(
    'Makes a retry safe: 16-128 characters (a random UUID), new for every write and the same for its retries; ' +
      'a retry answers like the first write and appends nothing.',
  );

/** The catalog description of a tool (one text for the MCP listing and the server card). */
export function describe(name: McpToolName): string {
  return MCP_TOOLS.find((tool) => tool.name === name)!.description;
}

/** A nonce argument as the digits the signed lanes take. */
export function nonceDigits(nonce: string | number | undefined): string {
  return nonce === undefined ? '' : typeof nonce === 'number' ? BigInt(nonce).toString() : nonce;
}
