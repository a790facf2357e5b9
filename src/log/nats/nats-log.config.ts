import { AppConfig } from '../../config/app-config';
import { listItems } from '../../config/list-items';
import { NatsLogOptions } from './nats-log.options';

/** The JetStream backend's options from the validated configuration (CHAT_NATS_*). */
export function natsLogOptionsFrom(config: AppConfig, logger: NatsLogOptions['logger']): NatsLogOptions {
  return {
    servers: listItems(config.natsUrl),
    stream: config.natsStream,
    replicas: config.natsReplicas,
    maxBytes: config.natsMaxBytes,
    duplicateWindowSeconds: config.natsDuplicateWindowSeconds,
    timeoutMs: config.natsTimeoutMs,
    retention: config.natsRetention,
    archive: config.natsArchive,
    archiveChunkBytes: config.natsArchiveChunkBytes,
    forkConfirmMs: config.natsForkConfirmMs,
    credentials: {
      user: config.natsUser || undefined,
      password: config.natsPassword || undefined,
      token: config.natsToken || undefined,
      credsFile: config.natsCreds || undefined,
    },
    logger,
  };
}
