import { Inject, Injectable, Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { ScheduledPass } from '../common/scheduled-pass';
import { isReapable } from './room-reap.rule';
import { RoomWriteService } from './room-write.service';
import { RoomsProjection } from './rooms.projection';

const JOB = 'room-reaper';

/**
 * Deletes idle rooms on a schedule by appending `room.reaped` events (so a reap is replayed like any
 * write). A room written between the scan and the append is left alone: the writer checks the head.
 */
@Injectable()
export class RoomReaperService extends ScheduledPass {
  private readonly logger = new Logger('RoomReaper');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    scheduler: SchedulerRegistry,
    private readonly rooms: RoomsProjection,
    private readonly writer: RoomWriteService,
    private readonly clock: Clock,
  ) {
    super(JOB, config.reapEverySeconds, scheduler);
  }

  /** One reaper pass; returns how many rooms were reaped. */
  protected async runPass(): Promise<number> {
    const now = this.clock.nowMicros();
    const idle = [...this.rooms.liveMetas()].filter((meta) => isReapable(meta, now, this.config));
    let reaped = 0;
    for (const meta of idle) {
      try {
        if (await this.writer.reap(meta.name, meta.head)) reaped++;
      } catch (error) {
        this.logger.warn(`reaping ${meta.name} failed: ${(error as Error).message}`);
        break;
      }
    }
    if (reaped > 0) this.logger.log(`reaped ${reaped} idle room(s)`);
    return reaped;
  }
}
