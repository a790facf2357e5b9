/** Where the file log reports what it did: recovery cuts, rolls, retention, the error that poisoned it. */
export interface LogSink {
  log(message: string): void;
  warn(message: string): void;
}

/** Default sink when none is given: the process console, prefixed so the lines are attributable. */
export const consoleLogSink: LogSink = {
  log: (message) => console.log(`[event-log] ${message}`),
  warn: (message) => console.warn(`[event-log] ${message}`),
};
