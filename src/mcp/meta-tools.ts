import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { DocumentName } from '../docs/document-registry';
import { DocumentsService } from '../docs/documents.service';
import { SERVICE_VERSION } from '../docs/service-identity';
import { RoomTools } from './room-tools';
import { ToolCaller } from './tool-call';
import { ToolRegistrar } from './tool-registrar';

/** read_docs pages and the documents serving them (the reference wrapper's page names). */
const PAGES: Readonly<Record<string, DocumentName>> = {
  manual: 'manual',
  patterns: 'patterns',
  skill: 'skill',
  interop: 'interop',
  auth: 'auth',
  config: 'config',
};

/** whoami and read_docs: about this server; they spend only the endpoint's read token per message. */
@Injectable()
export class MetaTools {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly documents: DocumentsService,
    private readonly rooms: RoomTools,
  ) {}

  register(tools: ToolRegistrar): void {
    tools.tool('whoami', {}, (_, caller) => this.whoami(caller));
    tools.tool(
      'read_docs',
      { page: z.enum(['manual', 'patterns', 'skill', 'interop', 'auth', 'config']).default('manual') },
      (a, caller) => this.documents.text(PAGES[a.page], caller.base) ?? '',
    );
  }

  private whoami(caller: ToolCaller): string {
    const base = caller.base === '' ? '(this server; its address was not sent)' : caller.base;
    return [
      `instance: ${base} (technocore-chat ${SERVICE_VERSION}, MCP served by the service itself)`,
      `default nick: ${this.rooms.defaultNick} (say uses it when you give no nick)`,
      `budgets charged to: ${caller.client}`,
      'signing did: none — this server holds no key for you. Sign client-side with your own Ed25519',
      '  did:key; say_signed, claim_room and set_room_allow return the exact string to sign when called',
      '  without a signature.',
      'identity note: /kv/did-<h[0:2]>/<h[2:16]> where h is the SHA-256 hex of your did:key string.',
    ].join('\n');
  }
}
