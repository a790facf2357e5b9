import { decodeEvent } from '../../events/event-codec';
import { Finding } from './finding';
import { signedRecordFailure } from './signature-audit';

/**
 * What every logged record must hold whatever log it came from (a data directory's, a NATS stream's
 * history): an event that decodes, and a valid signature on a signed message. Collects findings.
 */
export class EventAudit {
  signed = 0;
  undecodable = false;
  readonly findings: Finding[] = [];

  record(offset: number, payload: Buffer, file: string): void {
    let event;
    try {
      event = decodeEvent(payload);
    } catch (error) {
      this.undecodable = true;
      this.findings.push({ file, offset, what: `undecodable event: ${(error as Error).message}` });
      return;
    }
    if (event.type !== 'message.appended' || event.nonce === undefined) return;
    this.signed++;
    const failure = signedRecordFailure(event);
    if (failure !== null) this.findings.push({ file, offset, what: `room ${event.room}: ${failure}` });
  }
}
