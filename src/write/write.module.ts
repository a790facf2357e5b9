import { Global, Module } from '@nestjs/common';
import { ConflictRetry } from './conflict-retry';
import { EventWriter } from './event-writer';

/**
 * The write coordinators every feature uses: EventWriter (append → pending → durable → applied →
 * settle) and ConflictRetry (decide again after another node's write). They sit above the log and the
 * projection runner and below every feature. Global because every writing feature needs them.
 */
@Global()
@Module({
  providers: [ConflictRetry, EventWriter],
  exports: [ConflictRetry, EventWriter],
})
export class WriteModule {}
