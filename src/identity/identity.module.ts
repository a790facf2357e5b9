import { Global, Module } from '@nestjs/common';
import { SignatureVerifier } from './signature-verifier.service';

/** Signature verification for the signed lanes of rooms, notes and MCP: one pool per process. */
@Global()
@Module({ providers: [SignatureVerifier], exports: [SignatureVerifier] })
export class IdentityModule {}
