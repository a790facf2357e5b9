import { agentManifest } from './agent-manifest';
import { renderAuth } from './auth.md';
import { agentSkillsIndex, aiCatalog, apiCatalog } from './catalogs';
import { DocContext } from './doc-context';
import { effectiveConfig } from './effective-config';
import { renderInterop } from './interop.md';
import { renderManual } from './manual/manual';
import { mcpServerCard } from './mcp-server-card';
import { openApiDocument } from './openapi/openapi.document';
import { renderPatterns } from './patterns.md';
import { renderSkill } from './skill.md';
import { renderRobots, renderSecurityTxt, renderSitemap } from './text-documents';

/** How a document is labelled and which headers it gets (see DocumentPresenter). */
export type DocumentKind = 'text' | 'markdown' | 'json' | 'linkset' | 'xml';

export type DocumentName =
  | 'manual'
  | 'skill'
  | 'patterns'
  | 'interop'
  | 'auth'
  | 'openapi'
  | 'config'
  | 'agent'
  | 'apiCatalog'
  | 'agentSkills'
  | 'aiCatalog'
  | 'mcpCard'
  | 'security'
  | 'robots'
  | 'sitemap';

/** What a renderer may use besides its context: the time, and other documents' served bytes. */
export interface RenderInputs {
  readonly nowMs: number;
  bytesOf(name: DocumentName): Buffer | null;
}

export interface DocumentSpec {
  readonly kind: DocumentKind;
  /** The paths serving it (the route table has one route per path). */
  readonly paths: readonly string[];
  /** Body text (JSON documents: the value to print), or null when this deployment does not publish it. */
  render(ctx: DocContext, inputs: RenderInputs): string | object | null;
  /** Re-render after this long (only for documents that embed the time). */
  readonly maxAgeMs?: number;
  /** Listed in the sitemap. */
  readonly inSitemap: boolean;
}

const text = (paths: string[], render: (ctx: DocContext) => string): DocumentSpec => ({
  kind: 'text',
  paths,
  render,
  inSitemap: true,
});
const markdown = (path: string, render: (ctx: DocContext) => string): DocumentSpec => ({
  kind: 'markdown',
  paths: [path],
  render,
  inSitemap: true,
});
const json = (path: string, render: DocumentSpec['render'], kind: DocumentKind = 'json'): DocumentSpec => ({
  kind,
  paths: [path],
  render,
  inSitemap: true,
});

/** Every companion document (contract §15): the one table the service, sitemap and tests read. */
export const DOCUMENTS: Readonly<Record<DocumentName, DocumentSpec>> = {
  manual: text(['/', '/llms.txt'], renderManual),
  skill: markdown('/skill.md', renderSkill),
  patterns: markdown('/patterns.md', renderPatterns),
  interop: markdown('/interop.md', renderInterop),
  auth: markdown('/auth.md', renderAuth),
  openapi: json('/openapi.json', openApiDocument),
  config: json('/config', effectiveConfig),
  agent: json('/.well-known/agent.json', agentManifest),
  apiCatalog: json('/.well-known/api-catalog', apiCatalog, 'linkset'),
  agentSkills: json('/.well-known/agent-skills/index.json', (ctx, inputs) =>
    agentSkillsIndex(ctx, inputs.bytesOf('skill')!),
  ),
  aiCatalog: json('/.well-known/ai-catalog.json', aiCatalog),
  mcpCard: json('/.well-known/mcp/server-card.json', mcpServerCard),
  security: {
    kind: 'text',
    paths: ['/.well-known/security.txt'],
    render: (ctx, inputs) => renderSecurityTxt(ctx, inputs.nowMs),
    maxAgeMs: 86_400_000,
    inSitemap: true,
  },
  robots: { ...text(['/robots.txt'], renderRobots), inSitemap: false },
  sitemap: {
    kind: 'xml',
    paths: ['/sitemap.xml'],
    inSitemap: false,
    render: (ctx, inputs) => {
      const published = (Object.keys(DOCUMENTS) as DocumentName[]).filter(
        (name) => DOCUMENTS[name].inSitemap && inputs.bytesOf(name) !== null,
      );
      return renderSitemap(
        ctx,
        published.flatMap((name) => DOCUMENTS[name].paths),
      );
    },
  },
};
