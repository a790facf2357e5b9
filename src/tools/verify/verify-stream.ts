import { ArchiveDamagedError } from '../../log/nats/archive/archive-damaged.error';
import { ArchiveGapError } from '../../log/nats/archive/archive-gap.error';
import { NatsLogOptions } from '../../log/nats/nats-log.options';
import { withNatsHistory } from '../nats-history';
import { EventAudit } from './event-audit';
import { Finding } from './finding';

export interface StreamVerifyReport {
  readonly records: number;
  readonly signed: number;
  /** Records read from archive chunks (below the stream's first record). */
  readonly archived: number;
  /** `object store <stream>-archive`, or null when the stream has none. */
  readonly archive: string | null;
  readonly findings: Finding[];
}

/**
 * `npm run verify -- --nats <stream>`: the whole history of a NATS stream from offset 0 — every
 * archive chunk on the way checked against its digests, offsets contiguous from archive to stream,
 * every record an event, every signed message's signature. A NATS deployment has no data directory
 * of its own to audit (each node's is a cache of the stream: checkpoints, rings); verify those with
 * `npm run verify -- <data dir>` on the node. A gap or a damaged chunk ends the walk (nothing past
 * it can be placed) and is the finding, named.
 */
export async function verifyStream(options: NatsLogOptions): Promise<StreamVerifyReport> {
  const events = new EventAudit();
  const findings: Finding[] = [];
  return withNatsHistory(options, 0, async ({ records, streamFirst, archive }) => {
    let count = 0;
    let archived = 0;
    try {
      for await (const record of records) {
        const file = record.offset < streamFirst ? (archive ?? 'archive') : `stream ${options.stream}`;
        events.record(record.offset, record.payload, file);
        count++;
        if (record.offset < streamFirst) archived++;
      }
    } catch (error) {
      if (error instanceof ArchiveDamagedError) findings.push({ file: error.chunk, what: error.message });
      else if (error instanceof ArchiveGapError)
        findings.push({
          file: archive ?? `stream ${options.stream}`,
          offset: error.from,
          what: error.message,
        });
      else throw error;
    }
    return {
      records: count,
      signed: events.signed,
      archived,
      archive,
      findings: [...events.findings, ...findings],
    };
  });
}
