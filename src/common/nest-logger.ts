import { LoggerService } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/**
 * A pino logger writing JSON lines on stdout ({level, time, context?, msg, …}) at CHAT_LOG_LEVEL.
 * Level names are written as text (`"level":"info"`), not pino's numbers, so the lines read as before
 * pino and grep well. Two destinations on the same fd: the rare lines (start-up, warnings, reaps,
 * shutdown) are written synchronously, so none is lost when a signal ends the process right after;
 * the per-request lines go through an asynchronous one (`sync: false`), where a line costs a buffer
 * append rather than a write(2). Both write whole lines, so they interleave only between lines.
 */
export function createPino(level: LogLevel, sync = true): Pino {
  // Silent (the tests' default) opens no destination: many apps in one jest worker share fd 1.
  if (level === 'silent') return pino({ enabled: false });
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.destination({ dest: 1, sync }),
  );
}

let shared: Pino | null = null;

/** The shared logger (created at the first call with CHAT_LOG_LEVEL; later calls reuse it). */
export function processLogger(level: LogLevel = 'info'): Pino {
  shared ??= createPino(level);
  return shared;
}

/**
 * Nest's LoggerService over pino. Start-up is quiet (issue 16): until `markStarted`, the framework's
 * and the modules' info lines (module loading, each route mapped, log opened, replay done) are written
 * at `debug`, and main.ts writes one info line that sums them up. Warnings and errors are never demoted.
 */
export class NestLogger implements LoggerService {
  private starting = true;

  constructor(private readonly pino: Pino) {}

  /** From now on info lines are written at info. */
  markStarted(): void {
    this.starting = false;
  }

  log(message: unknown, context?: string): void {
    this.write(this.starting ? 'debug' : 'info', message, context);
  }

  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }

  error(message: unknown, stackOrContext?: string, context?: string): void {
    this.write('error', message, context ?? stackOrContext);
  }

  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }

  verbose(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }

  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(
    level: 'debug' | 'info' | 'warn' | 'error' | 'fatal',
    message: unknown,
    context?: string,
  ): void {
    if (!this.pino.isLevelEnabled(level)) return;
    this.pino[level]({ context }, message instanceof Error ? message.message : String(message));
  }
}

/**
 * A line the operator must see whatever CHAT_LOG_LEVEL says (where the service listens, why it could
 * not start): through pino when its level is enabled, otherwise written directly in the same shape.
 */
export function logAlways(level: 'info' | 'fatal', fields: Record<string, unknown>, msg: string): void {
  const log = processLogger();
  if (log.isLevelEnabled(level)) return log[level](fields, msg);
  process.stdout.write(`${JSON.stringify({ level, time: new Date().toISOString(), ...fields, msg })}\n`);
}
