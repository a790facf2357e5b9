import { NatsConnection } from '@nats-io/nats-core';
import { LogUnavailableError } from '../log.errors';
import { NatsLogOptions } from './nats-log.options';

/**
 * Follows the connection's status for the life of the connection: on a disconnect `report` gets the
 * error appends fail with at once (a clear 503 instead of waiting out the publish deadline), on a
 * reconnect undefined again.
 */
export async function watchConnection(
  nc: NatsConnection,
  options: Pick<NatsLogOptions, 'servers' | 'logger'>,
  report: (lost: LogUnavailableError | undefined) => void,
): Promise<void> {
  for await (const status of nc.status()) {
    if (status.type === 'disconnect') {
      const lost = new LogUnavailableError(`NATS connection lost (${options.servers.join(',')})`);
      options.logger?.warn(lost.message);
      report(lost);
    } else if (status.type === 'reconnect') {
      options.logger?.log('NATS connection restored');
      report(undefined);
    }
  }
}
