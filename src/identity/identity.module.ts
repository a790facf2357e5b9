import { Global, Module } from '@nestjs/common';
import { SignatureVerifier } from './signature-verifier.service';
import { ServiceKey } from './service-key';
import { CHECKPOINT_SIGNER } from '../projections/checkpoint-signer';

/**
 * Signature verification for the signed lanes (one pool per process) and the service's own key, which
 * also signs each checkpoint's log chain value (the projections' CHECKPOINT_SIGNER port).
 */
@Global()
@Module({
  providers: [SignatureVerifier, ServiceKey, { provide: CHECKPOINT_SIGNER, useExisting: ServiceKey }],
  exports: [SignatureVerifier, ServiceKey, CHECKPOINT_SIGNER],
})
export class IdentityModule {}
