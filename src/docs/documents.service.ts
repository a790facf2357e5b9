import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { BaseEntry, BaseRenderings } from './base-renderings';
import { docContext } from './doc-context';
import { ServiceKey } from '../identity/service-key';
import { DOCUMENTS, DocumentName } from './document-registry';

interface Rendered {
  readonly body: Buffer | null;
  readonly expiresAt: number;
}

/**
 * Renders each document once per base URL and keeps the bytes (contract §15): documents depend only on
 * the configuration, which is frozen, and on the base URL their links use. JSON documents are printed
 * with a one-space indent and raw non-ASCII; every body ends with a newline.
 */
@Injectable()
export class DocumentsService {
  private readonly cache: BaseRenderings<Map<DocumentName, Rendered>>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly serviceKey: ServiceKey,
  ) {
    this.cache = new BaseRenderings(clock, () => new Map());
  }

  /**
   * The served bytes of a document for a base URL, or null when this deployment does not publish it.
   * Under a flood of unseen bases the relative-link rendering may be served instead (BaseRenderings).
   */
  bytes(name: DocumentName, requestedBase: string): Buffer | null {
    return this.rendered(name, this.cache.of(requestedBase));
  }

  private rendered(name: DocumentName, entry: BaseEntry<Map<DocumentName, Rendered>>): Buffer | null {
    const { base, renderings } = entry;
    const now = this.clock.nowMs();
    const cached = renderings.get(name);
    if (cached !== undefined && now < cached.expiresAt) return cached.body;
    const spec = DOCUMENTS[name];
    const value = spec.render(docContext(this.config, base, this.serviceKey.did), {
      nowMs: now,
      bytesOf: (other) => this.rendered(other, entry),
    });
    const body = value === null ? null : Buffer.from(serialise(value), 'utf8');
    renderings.set(name, { body, expiresAt: spec.maxAgeMs === undefined ? Infinity : now + spec.maxAgeMs });
    return body;
  }

  /** A document's text (the MCP read_docs tool); null when not published. */
  text(name: DocumentName, base: string): string | null {
    return this.bytes(name, base)?.toString('utf8') ?? null;
  }
}

function serialise(value: string | object): string {
  if (typeof value !== 'string') return `${JSON.stringify(value, null, 1)}\n`;
  return value.endsWith('\n') ? value : `${value}\n`;
}
