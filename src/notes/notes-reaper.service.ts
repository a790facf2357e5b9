import { Inject, Injectable, Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { ScheduledPass } from '../common/scheduled-pass';
import { RoomHeads } from '../ownership/room-heads.port';
import { isReclaimable } from './note-reclaim.rule';
import { NoteWriteService, ReclaimCandidate } from './note-write.service';
import { NotesProjection } from './notes.projection';

const JOB = 'notes-reaper';
/** Reclaims per appended batch: bounds one append while a backlog of idle notes drains. */
const BATCH = 512;

/**
 * Reclaims idle notes on the reaper's schedule by appending `note.reclaimed` events (so a reclaim is
 * replayed like any write). Each batch is re-checked against the current state just before it is
 * appended; a note written since the scan keeps its value (the writer compares the write time).
 */
@Injectable()
export class NotesReaperService extends ScheduledPass {
  private readonly logger = new Logger('NotesReaper');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    scheduler: SchedulerRegistry,
    private readonly notes: NotesProjection,
    private readonly rooms: RoomHeads,
    private readonly writer: NoteWriteService,
    private readonly clock: Clock,
  ) {
    super(JOB, config.reapEverySeconds, scheduler);
  }

  /** One pass; returns how many notes were reclaimed. */
  protected async runPass(): Promise<number> {
    const idle = this.scan();
    let reclaimed = 0;
    for (let i = 0; i < idle.length; i += BATCH) {
      try {
        // Re-checked synchronously right before the append: a room created since keeps its guard notes.
        const batch = idle.slice(i, i + BATCH).filter((c) => this.stillIdle(c));
        reclaimed += await this.writer.reclaim(batch);
      } catch (error) {
        this.logger.warn(`reclaiming notes failed: ${(error as Error).message}`);
        break;
      }
    }
    if (reclaimed > 0) this.logger.log(`reclaimed ${reclaimed} idle note(s)`);
    return reclaimed;
  }

  private scan(): ReclaimCandidate[] {
    const idle: ReclaimCandidate[] = [];
    for (const { ns, key, note } of this.notes.entries()) {
      if (this.reclaimable(ns, key, note.lastWriteAt)) idle.push({ ns, key, lastWriteAt: note.lastWriteAt });
    }
    return idle;
  }

  private stillIdle(candidate: ReclaimCandidate): boolean {
    return this.reclaimable(candidate.ns, candidate.key, candidate.lastWriteAt);
  }

  private reclaimable(ns: string, key: string, lastWriteAt: number): boolean {
    return isReclaimable({
      ns,
      key,
      lastWriteAt,
      nowMicros: this.clock.nowMicros(),
      retentionSeconds: this.config.retentionSeconds,
      roomExists: (room) => this.rooms.view(room).exists,
    });
  }
}
