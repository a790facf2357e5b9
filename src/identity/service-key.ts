import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { SigningKey } from './signing-key';
import { loadServiceKey } from './service-key-file';

/**
 * The service's own Ed25519 identity (issue 29): what it signs room heads with. The seed is read from
 * CHAT_SERVICE_KEY_FILE (one file shared by a cluster's nodes, so every node signs as one did:key) or
 * from `<root>/service-key`, created on first start with mode 0600 and exclusively (two processes
 * starting on one fresh directory cannot end up with different keys on disk).
 */
@Injectable()
export class ServiceKey {
  private readonly key: SigningKey;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = loadServiceKey(config);
  }

  get did(): string {
    return this.key.did;
  }

  /** The canonical base64url Ed25519 signature over the UTF-8 bytes of `payload`. */
  sign(payload: string): string {
    return this.key.sign(payload);
  }
}
