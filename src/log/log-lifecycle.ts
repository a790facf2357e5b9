import { Logger } from '@nestjs/common';
import { EventLog } from './event-log';

/** What one user of the log does when the log closes. */
export interface LogCloseStep {
  /** Work that needs the log open (the projections: stop applying, take the final checkpoint). */
  beforeClose?(): Promise<void>;
  /** After the log closed (flushed and synced), whether or not closing succeeded. */
  afterClose?(): void;
}

/**
 * The log's lifecycle, owned by the log module: the log is opened (its tail recovered) by the module's
 * provider before anything that reads or writes it is built, and closed here, once, at application
 * shutdown, after Nest has stopped the HTTP server (so no request appends any more).
 *
 * Users that need the log open until the end register a step with `onClose` instead of closing it
 * themselves: every `beforeClose` runs, in registration order, before the log's close (flush +
 * fsync), and a failing one is logged and does not keep the log open; every `afterClose` runs after
 * it, even when closing failed.
 */
export class LogLifecycle {
  private readonly logger = new Logger('EventLog');
  private readonly steps: LogCloseStep[] = [];
  private closing: Promise<void> | null = null;

  constructor(private readonly log: EventLog) {}

  onClose(step: LogCloseStep): void {
    this.steps.push(step);
  }

  /** Runs the users' steps around the log's close; a second call joins the first. */
  close(): Promise<void> {
    this.closing ??= this.run();
    return this.closing;
  }

  private async run(): Promise<void> {
    for (const step of this.steps) {
      try {
        await step.beforeClose?.();
      } catch (error) {
        this.warn('before closing the log', error);
      }
    }
    try {
      await this.log.close();
    } finally {
      // Every step runs, and a failing one (a full disk refusing the last ring bytes) never hides
      // the log's own error or the steps after it.
      for (const step of this.steps) {
        try {
          step.afterClose?.();
        } catch (error) {
          this.warn('after closing the log', error);
        }
      }
    }
  }

  private warn(when: string, error: unknown): void {
    this.logger.warn(`${when}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
