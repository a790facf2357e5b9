import { Global, Module } from '@nestjs/common';
import { SignatureVerifier } from './signature-verifier.service';
import { ServiceKey } from './service-key';

/** Signature verification for the signed lanes (one pool per process) and the service's own key. */
@Global()
@Module({ providers: [SignatureVerifier, ServiceKey], exports: [SignatureVerifier, ServiceKey] })
export class IdentityModule {}
