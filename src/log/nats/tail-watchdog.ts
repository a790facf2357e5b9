import { StreamTail } from './stream-tail';

/** How long a silent tail may go before the watchdog checks whether the stream moved on without it. */
const TAIL_CHECK_MS = 2000;

/**
 * The tail's watchdog: after an interval in which the tail delivered nothing, ask the stream where its
 * head is, and let the tail replace its consumer if it is behind. Without it a node whose consumer
 * died with a cluster server would stop seeing every node's writes, its own included, for good.
 */
export class TailWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  /** `streamNext`: the offset the stream's next record will get (asks the server). */
  constructor(
    private readonly tail: StreamTail,
    private readonly streamNext: () => Promise<number>,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.check(), TAIL_CHECK_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async check(): Promise<void> {
    if (this.checking || this.tail.takeProgress()) return;
    this.checking = true;
    try {
      this.tail.restartIfBehind(await this.streamNext());
    } catch {
      // No stream leader right now: the next tick asks again.
    } finally {
      this.checking = false;
    }
  }
}
