import { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';

/**
 * A job run every `everySeconds` through @nestjs/schedule's registry (so it shows up there and stops
 * with the application), one pass at a time: a pass requested while one runs joins it. The reapers
 * extend it; `runPass` returns how much it did.
 */
export abstract class ScheduledPass implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private running: Promise<number> | null = null;

  protected constructor(
    private readonly job: string,
    private readonly everySeconds: number,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    const timer = setInterval(() => void this.pass(), this.everySeconds * 1000);
    timer.unref();
    this.scheduler.addInterval(this.job, timer);
  }

  beforeApplicationShutdown(): void {
    if (this.scheduler.doesExist('interval', this.job)) this.scheduler.deleteInterval(this.job);
  }

  /** One pass now; overlapping calls share it. */
  pass(): Promise<number> {
    this.running ??= this.runPass().finally(() => (this.running = null));
    return this.running;
  }

  protected abstract runPass(): Promise<number>;
}
