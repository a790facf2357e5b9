import { LoggerService } from '@nestjs/common';

type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * Structured logs: one JSON object per line on stdout ({time, level, context, msg}), filtered by
 * CHAT_LOG_LEVEL. Cheap enough for the few lines the service writes (start-up, reaps, failures);
 * nothing is logged per request.
 */
export class NestLogger implements LoggerService {
  private readonly threshold: number;

  constructor(level: Level) {
    this.threshold = RANK[level];
  }

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
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

  private write(level: Level, message: unknown, context?: string): void {
    if (RANK[level] < this.threshold) return;
    const line = JSON.stringify({
      time: new Date().toISOString(),
      level,
      context,
      msg: message instanceof Error ? message.message : message,
    });
    process.stdout.write(`${line}\n`);
  }
}
