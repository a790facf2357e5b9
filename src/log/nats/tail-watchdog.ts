import { StreamTail } from './stream-tail';

/** How often the stream is checked: its head (is the tail behind?) and its history (StreamGuard). */
const CHECK_MS = 2000;

/**
 * The stream's watchdog, every 2 s: `inspect` asks the stream where its head is (and lets the guard
 * compare its history with what this node applied); if the tail delivered nothing since the last
 * tick while the stream holds records past it, the tail replaces its consumer. Without it a node
 * whose consumer died with a cluster server would stop seeing every node's writes, its own
 * included, for good; and a stream rewound without a reconnect would go unnoticed.
 */
export class TailWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  /** `inspect` resolves with the offset the stream's next record will get (asks the server). */
  constructor(
    private readonly tail: StreamTail,
    private readonly inspect: () => Promise<number>,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.check(), CHECK_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const streamNext = await this.inspect();
      if (!this.tail.takeProgress()) this.tail.restartIfBehind(streamNext);
    } catch {
      // No stream leader right now: the next tick asks again.
    } finally {
      this.checking = false;
    }
  }
}
