import { formatTimestamp } from '../../common/timestamp';
import { abbreviateDid } from '../../identity/did-key';
import { NoteWriteAck } from '../note-write.service';
import { UNTRUSTED_BANNER } from '../../http/render/banner';

/** A note read (contract §10.1): the banner, an empty line, the value (always one line). */
export function renderNoteText(value: string): string {
  return `${UNTRUSTED_BANNER}\n\n${value}\n`;
}

/** A listing as text (§10.2): one `/kv/<ns>/<key>` per line; an empty listing is just `\n`. */
export function renderNoteListText(ns: string, keys: readonly string[]): string {
  return keys.length === 0 ? '\n' : keys.map((key) => `/kv/${ns}/${key}\n`).join('');
}

export function renderNoteListJson(ns: string, keys: readonly string[]): string {
  return `${JSON.stringify({ ns, keys })}\n`;
}

/** The write ack (§10.3, §10.4): `ok <ns>/<key> <bytes>B <ts>`, plus ` signed by z6Mk…abcd` when signed. */
export function renderNoteAckText(ack: NoteWriteAck): string {
  const signed = ack.signer === undefined ? '' : ` signed by ${abbreviateDid(ack.signer)}`;
  return `ok ${ack.ns}/${ack.key} ${ack.bytes}B ${formatTimestamp(ack.at)}${signed}\n`;
}

/** The JSON ack: the same four keys for both lanes (no signer field). */
export function renderNoteAckJson(ack: NoteWriteAck): string {
  return `${JSON.stringify({ ns: ack.ns, key: ack.key, bytes: ack.bytes, ts: formatTimestamp(ack.at) })}\n`;
}
