import { FastifyReply } from 'fastify';

/**
 * Adds names to the reply's Vary header, keeping what is there (CORS adds Origin in its onRequest
 * hook; documents add Accept and Host later). Case-insensitive, no duplicates, `*` absorbs all.
 */
export function addVary(reply: FastifyReply, ...names: string[]): void {
  const current = reply.getHeader('vary');
  const values = typeof current === 'string' && current !== '' ? current.split(/\s*,\s*/) : [];
  if (values.includes('*')) return;
  for (const name of names) {
    if (!values.some((v) => v.toLowerCase() === name.toLowerCase())) values.push(name);
  }
  if (values.length > 0) reply.header('vary', values.join(', '));
}
