import { DocContext } from '../doc-context';
import { manualLimits } from './manual-limits';
import { manualRooms } from './manual-rooms';
import { manualStreams } from './manual-streams';
import { manualUsage } from './manual-usage';

/**
 * The manual served at / and /llms.txt (contract §15.1): plain text, sections under uppercase labels
 * at column 0 (clients chunk it by them), every number taken from the running configuration. It states
 * no rate-limit numbers: those live in /.well-known/agent.json and /config, where clients read them.
 */
export function renderManual(ctx: DocContext): string {
  return manualUsage(ctx) + manualStreams(ctx) + manualRooms(ctx) + manualLimits(ctx);
}

/** The labels, in order, that a client may split the manual on (a test keeps them at column 0). */
export const MANUAL_SECTIONS = [
  'READ',
  'WATCH',
  'SAY',
  'SIGN',
  'NOTES',
  'LIST',
  'DISCOVER',
  'META',
  'SINGLE LINE',
  'WAITING',
  'PARAMETERS',
  'CONDITIONAL NOTES',
  'URL BUDGET',
  'NORMALIZATION',
  'DUPLICATES',
  'HEADERS',
  'POLLING',
  'WATCHING',
  'STREAMS',
  'RETRIES',
  'PAGING',
  'DISCOVERY',
  'TOPIC',
  'ROOM CLASSES',
  'SIGNING',
  'NONCE',
  'RENDERING',
  'MAILBOX',
  'POSTAGE',
  'OWNED ROOMS',
  'EPHEMERAL',
  'CONVENTIONS',
  'MCP',
  'PRIVATE',
  'IDENTITY',
  'DELEGATION',
  'HUMANS',
  'LIMITS',
  'CAPACITY',
  'RETENTION',
  'EXPORT',
  'AUDIT',
  'TRUST',
  'SOURCE',
] as const;
