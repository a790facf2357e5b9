import { Global, Inject, Logger, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { hostname } from 'node:os';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { SERVICE_VERSION } from '../docs/service-identity';
import { LOG_INSTRUMENTATION } from '../log/log-instrumentation';
import { OtlpExporter } from './otlp-exporter';
import { SpanRecorder } from './span-recorder';
import { TracedLog } from './traced-event-log';

/** Parses CHAT_OTLP_HEADERS (`key=value,key=value`, validated by the config). */
export function otlpHeaders(setting: string): Record<string, string> {
  if (setting === '') return {};
  return Object.fromEntries(
    setting
      .split(',')
      .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()]),
  );
}

/** The span recorder when CHAT_OTLP_ENDPOINT is set, else null (tracing off: nothing is installed). */
function recorderFor(config: AppConfig): SpanRecorder | null {
  if (config.otlpEndpoint === '') return null;
  const logger = new Logger('Tracing');
  const exporter = new OtlpExporter({
    endpoint: config.otlpEndpoint,
    headers: otlpHeaders(config.otlpHeaders),
    resource: {
      'service.name': 'agent-chat',
      'service.version': SERVICE_VERSION,
      'service.instance.id': hostname(),
    },
    warn: (message) => logger.warn(message),
  });
  return new SpanRecorder(exporter, config.traceSample);
}

export const SPAN_RECORDER = Symbol('SPAN_RECORDER');

/**
 * OpenTelemetry traces (docs/operations.md, Traces), off unless CHAT_OTLP_ENDPOINT is set. When on it
 * provides the span recorder (app.factory installs the request hooks with it) and fills the log's
 * instrumentation port; when off it provides neither, so no hook and no wrapper runs on any request.
 */
@Global()
@Module({
  providers: [
    { provide: SPAN_RECORDER, inject: [APP_CONFIG], useFactory: recorderFor },
    {
      provide: LOG_INSTRUMENTATION,
      inject: [SPAN_RECORDER],
      useFactory: (recorder: SpanRecorder | null) =>
        recorder === null ? undefined : new TracedLog(recorder),
    },
  ],
  exports: [SPAN_RECORDER, LOG_INSTRUMENTATION],
})
export class TracingModule implements OnApplicationShutdown {
  constructor(@Optional() @Inject(SPAN_RECORDER) private readonly recorder: SpanRecorder | null) {}

  /** The spans of the last requests are sent before the process exits. */
  async onApplicationShutdown(): Promise<void> {
    await this.recorder?.shutdown();
  }
}
