import { loadConfig } from '../config/load-config';
import { natsLogOptionsFrom } from '../log/nats/nats-log.config';
import { NatsLogOptions } from '../log/nats/nats-log.options';

/** The service's own CHAT_NATS_* knobs (servers, credentials, timeout), for `stream` or its own. */
export function toolNatsOptions(stream?: string): NatsLogOptions {
  // eslint-disable-next-line no-restricted-properties -- the tool reads the service's own CHAT_NATS_* knobs
  const config = loadConfig(process.env);
  return { ...natsLogOptionsFrom(config, undefined), stream: stream ?? config.natsStream };
}
