import { join } from 'node:path';
import { formatTimestamp } from '../../src/common/timestamp';
import { RoomEvent } from '../../src/events/chat-event';
import { encodeEvent } from '../../src/events/event-codec';
import { SegmentedEventLog } from '../../src/log/file/segmented-event-log';
import { unsignedRecordLine } from '../../src/rooms/read-side/stored-record';
import { EventLog, LogScope } from '../../src/log/event-log';
import { MAX_BATCH_MESSAGES } from '../../src/log/nats/append-batch';
import { roomScope } from '../../src/write/log-scopes';

/** Records per append: what one NATS atomic batch holds (the file log takes any number). */
const BATCH = MAX_BATCH_MESSAGES;

export interface GeneratedLog {
  readonly events: number;
  readonly bytes: number;
}

/**
 * Writes a realistic event log straight into a data directory (no service, no fsync per record):
 * `rooms` rooms created, then `messagesPerRoom` messages each, round-robin, texts of `textBytes`.
 * The service started on the directory then rebuilds every projection from it.
 */
export async function generateLog(
  root: string,
  rooms: number,
  messagesPerRoom: number,
  textBytes: number,
  // Another log to fill (bench/snapshot-join.bench.ts: a JetStream stream), opened here.
  log: EventLog = new SegmentedEventLog({
    dir: join(root, 'log'),
    fsync: 'none',
    logger: { log: () => undefined, warn: () => undefined },
  }),
): Promise<GeneratedLog> {
  await log.open();
  let at = Date.now() * 1000 - rooms * messagesPerRoom;
  let batch: Buffer[] = [];
  let scopes: LogScope[] = [];
  let bytes = 0;
  let events = 0;
  const push = async (event: RoomEvent): Promise<void> => {
    const payload = encodeEvent(event);
    batch.push(payload);
    scopes.push(roomScope(event.room));
    bytes += payload.length;
    events++;
    if (batch.length >= BATCH) {
      const { next } = await log.append(batch, { scopes });
      // A shared log refuses writes once its tail lags its acknowledgements for long: keep it close.
      while (log.committedHead() < next - 20 * BATCH) await new Promise((resolve) => setTimeout(resolve, 5));
      batch = [];
      scopes = [];
    }
  };
  const filler = 'x'.repeat(Math.max(0, textBytes - 24));
  for (let r = 0; r < rooms; r++)
    await push({ type: 'room.created', room: `gen${r}`, generation: 1, at: at++ });
  for (let seq = 1; seq <= messagesPerRoom; seq++) {
    for (let r = 0; r < rooms; r++) {
      const ts = formatTimestamp(at);
      const record = unsignedRecordLine(
        seq,
        ts,
        `nick${(seq + r) % 11}`,
        `message ${seq} of gen${r} ${filler}`,
      );
      await push({ type: 'message.appended', room: `gen${r}`, seq, at: at++, record });
    }
  }
  if (batch.length > 0) await log.append(batch, { scopes });
  await log.close();
  return { events, bytes };
}
