/** Who the JetStream backend talks to and how the stream must look (from CHAT_NATS_*). */
export interface NatsLogOptions {
  /** NATS servers, tried in turn (CHAT_NATS_URL, comma-separated). */
  readonly servers: readonly string[];
  /** Stream name (CHAT_NATS_STREAM); its subjects are `chat.<stream>.v2.>` (subjects.ts). */
  readonly stream: string;
  /** Replicas the stream must have (CHAT_NATS_REPLICAS): 1 on one server, 3 on a cluster. */
  readonly replicas: number;
  /** Stream byte limit (CHAT_NATS_MAX_BYTES, -1 = none); full means writes are refused, never history dropped. */
  readonly maxBytes: number;
  /** Nats-Msg-Id de-duplication window in seconds (CHAT_NATS_DUPLICATE_WINDOW_SECONDS). */
  readonly duplicateWindowSeconds: number;
  /** Deadline of connecting, of one publish acknowledgement and of a whole write (CHAT_NATS_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /**
   * CHAT_NATS_RETENTION: `snapshot` purges records below the oldest kept shared snapshot, `keep`
   * never deletes; '' follows what the stream was created with (stream-spec.ts, RETENTION_METADATA).
   */
  readonly retention?: '' | 'keep' | 'snapshot';
  /**
   * CHAT_NATS_ARCHIVE: `object` copies records into the object store `<stream>-archive` before a purge
   * removes them (archive/FORMAT.md); `off` (absent) purges without a copy.
   */
  readonly archive?: 'off' | 'object';
  /** CHAT_NATS_ARCHIVE_CHUNK_BYTES: an archive chunk ends after the record that brings it to this size. */
  readonly archiveChunkBytes?: number;
  /**
   * CHAT_NATS_FORK_CONFIRM_MS: how long the stream may show less than this node applied before that is
   * a fork (ShortfallWindow); absent: DEFAULT_FORK_CONFIRM_MS.
   */
  readonly forkConfirmMs?: number;
  readonly credentials?: NatsCredentials;
  readonly logger?: {
    log(message: string): void;
    warn(message: string): void;
    error?(message: string): void;
  };
}

/** At most one way to authenticate; all absent means no authentication. */
export interface NatsCredentials {
  readonly user?: string;
  readonly password?: string;
  readonly token?: string;
  /** Path of a `.creds` file (JWT + NKey seed). */
  readonly credsFile?: string;
}
