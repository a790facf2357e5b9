import { join } from 'node:path';
import { formatTimestamp } from '../../src/common/timestamp';
import { ChatEvent } from '../../src/events/chat-event';
import { encodeEvent } from '../../src/events/event-codec';
import { SegmentedEventLog } from '../../src/log/file/segmented-event-log';
import { unsignedRecordLine } from '../../src/rooms/read-side/stored-record';

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
): Promise<GeneratedLog> {
  const log = new SegmentedEventLog({
    dir: join(root, 'log'),
    fsync: 'none',
    logger: { log: () => undefined, warn: () => undefined },
  });
  await log.open();
  let at = Date.now() * 1000 - rooms * messagesPerRoom;
  let batch: Buffer[] = [];
  let bytes = 0;
  let events = 0;
  const push = async (event: ChatEvent): Promise<void> => {
    const payload = encodeEvent(event);
    batch.push(payload);
    bytes += payload.length;
    events++;
    if (batch.length >= 4096) {
      await log.append(batch);
      batch = [];
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
  if (batch.length > 0) await log.append(batch);
  await log.close();
  return { events, bytes };
}
