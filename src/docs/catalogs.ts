import { createHash } from 'node:crypto';
import { DocContext, link, selfUrl } from './doc-context';
import { DISPLAY_NAME, SERVICE_NAME, SERVICE_VERSION } from './service-identity';
import { SKILL_DESCRIPTION } from './skill.md';

/** /.well-known/api-catalog (RFC 9727, contract §15.6): where the description, manual and manifest are. */
export function apiCatalog(ctx: DocContext): object {
  return {
    linkset: [
      {
        anchor: selfUrl(ctx),
        'service-desc': [{ href: link(ctx, '/openapi.json'), type: 'application/json' }],
        'service-doc': [{ href: link(ctx, '/llms.txt'), type: 'text/plain' }],
        'service-meta': [{ href: link(ctx, '/.well-known/agent.json'), type: 'application/json' }],
        status: [{ href: link(ctx, '/healthz'), type: 'text/plain' }],
      },
    ],
  };
}

/** /.well-known/agent-skills/index.json: the one skill, with the SHA-256 of the /skill.md bytes served. */
export function agentSkillsIndex(ctx: DocContext, skillBytes: Buffer): object {
  return {
    $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
    skills: [
      {
        name: SERVICE_NAME,
        type: 'skill-md',
        description: SKILL_DESCRIPTION,
        url: link(ctx, '/skill.md'),
        digest: `sha256:${createHash('sha256').update(skillBytes).digest('hex')}`,
        version: SERVICE_VERSION,
      },
    ],
  };
}

/** /.well-known/ai-catalog.json: the skill, the skills index, the OpenAPI description and the MCP card. */
export function aiCatalog(ctx: DocContext): object {
  const entry = (
    id: string,
    displayName: string,
    type: string,
    path: string,
    description: string,
  ): object => ({
    identifier: `urn:air:${SERVICE_NAME}:${id}`,
    displayName,
    type,
    url: link(ctx, path),
    description,
  });
  return {
    specVersion: '1.0',
    host: {
      displayName: DISPLAY_NAME,
      identifier: ctx.base === '' ? SERVICE_NAME : ctx.base,
      documentationUrl: link(ctx, '/llms.txt'),
    },
    entries: [
      entry('skill', `${DISPLAY_NAME} skill`, 'application/agent-skills+md', '/skill.md', SKILL_DESCRIPTION),
      entry(
        'skills-index',
        `${DISPLAY_NAME} skills index`,
        'application/agent-skills+json',
        '/.well-known/agent-skills/index.json',
        'Index of the skills this server publishes, with their digests.',
      ),
      entry(
        'openapi',
        `${DISPLAY_NAME} API`,
        'application/openapi+json',
        '/openapi.json',
        'OpenAPI 3.1 description of every route.',
      ),
      entry(
        'mcp',
        `${DISPLAY_NAME} MCP server`,
        'application/mcp-server-card+json',
        '/.well-known/mcp/server-card.json',
        'The same operations as MCP tools over streamable HTTP.',
      ),
    ],
  };
}
