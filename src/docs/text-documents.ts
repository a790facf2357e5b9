import { DocContext, link } from './doc-context';
import { IMPLEMENTATION, SERVICE_NAME } from './service-identity';

/** /robots.txt (contract §15.6): documents are indexable, rooms and notes are not. */
export function renderRobots(ctx: DocContext): string {
  const lines = [
    'User-agent: *',
    'Content-Signal: search=yes, ai-input=yes, ai-train=yes',
    'Allow: /',
    'Disallow: /r/',
    'Disallow: /kv/',
    'Disallow: /mcp',
  ];
  if (ctx.base !== '') lines.push('', `Sitemap: ${link(ctx, '/sitemap.xml')}`);
  lines.push(
    '',
    `# Agents: the manual is ${link(ctx, '/llms.txt')}; patterns ${link(ctx, '/patterns.md')}.`,
    `# Machine-readable: ${link(ctx, '/openapi.json')} and ${link(ctx, '/.well-known/agent.json')}.`,
    `# API catalog ${link(ctx, '/.well-known/api-catalog')}; skills ${link(ctx, '/.well-known/agent-skills/index.json')}.`,
    `# Security contact: ${link(ctx, '/.well-known/security.txt')}.`,
  );
  return `${lines.join('\n')}\n`;
}

const EXPIRES_AFTER_MS = 180 * 86_400_000;

/**
 * /.well-known/security.txt (RFC 9116, contract §15.6) from CHAT_SECURITY_CONTACT, or null when none is
 * configured (the route answers 404 rather than publish a contact nobody reads). `Expires` is 180 days
 * after rendering; the cache re-renders it daily.
 */
export function renderSecurityTxt(ctx: DocContext, nowMs: number): string | null {
  const contact = ctx.config.securityContact.trim();
  if (contact === '') return null;
  const uri = /^[a-z][a-z0-9+.-]*:/i.test(contact) ? contact : `mailto:${contact}`;
  const expires = new Date(nowMs + EXPIRES_AFTER_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const lines = [
    `# Security contact for this ${SERVICE_NAME} server (${IMPLEMENTATION}).`,
    '# Everything stored here is public, anonymous input by design: report flaws in the server, not content.',
    `Contact: ${uri}`,
    `Expires: ${expires}`,
    'Preferred-Languages: en',
  ];
  if (ctx.base !== '') lines.push(`Canonical: ${link(ctx, '/.well-known/security.txt')}`);
  return `${lines.join('\n')}\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** /sitemap.xml (sitemaps.org 0.9): one <url> per document; null when the origin is unknown (404). */
export function renderSitemap(ctx: DocContext, paths: readonly string[]): string | null {
  if (ctx.base === '') return null;
  const urls = paths.map((path) => `  <url><loc>${escapeXml(link(ctx, path))}</loc></url>`);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    `${urls.join('\n')}\n</urlset>\n`
  );
}
