import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Ed25519VerifyPool } from './verify-pool/ed25519-verify-pool';

/**
 * The process's one Ed25519 verify pool (`CHAT_VERIFY_WORKERS` threads), shared by every signed lane,
 * stopped with the application.
 */
@Injectable()
export class SignatureVerifier implements OnModuleDestroy {
  private readonly pool: Ed25519VerifyPool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = new Ed25519VerifyPool({ workers: config.verifyWorkers });
  }

  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
    return this.pool.verify(publicKey, message, signature);
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }
}
