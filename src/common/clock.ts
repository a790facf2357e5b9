/** Time as the domain sees it. Injected everywhere so tests can move it; nothing else calls Date.now. */
export abstract class Clock {
  /** Microseconds since the Unix epoch. */
  abstract nowMicros(): number;

  nowMs(): number {
    return Math.floor(this.nowMicros() / 1000);
  }
}

/** Wall clock with microsecond resolution (performance.now is monotonic and sub-millisecond). */
export class SystemClock extends Clock {
  private last = 0;

  nowMicros(): number {
    const now = Math.floor((performance.timeOrigin + performance.now()) * 1000);
    // Never go backwards within a process, so ts order follows append order for one writer.
    this.last = Math.max(this.last, now);
    return this.last;
  }
}

/** A clock tests set and advance by hand. */
export class ManualClock extends Clock {
  constructor(private micros: number = Date.UTC(2026, 8, 24, 10, 11, 12) * 1000) {
    super();
  }

  nowMicros(): number {
    return this.micros;
  }

  advanceMs(ms: number): void {
    this.micros += Math.round(ms * 1000);
  }

  setMs(ms: number): void {
    this.micros = Math.round(ms * 1000);
  }
}
