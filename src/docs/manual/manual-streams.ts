import { formatG } from '../../common/py-compat/py-format';
import { DocContext, proseSeconds } from '../doc-context';

/** Many rooms over one connection (watch, streams), safe retries and paging (issue 28). */
export function manualStreams(ctx: DocContext): string {
  const c = ctx.config;
  const wait = formatG(c.maxWait);
  return `
WATCHING
GET /watch?rooms=<room>:<since>,<room>:<since>,... waits on up to ${c.watchMaxRooms} rooms at once, each with its own
cursor, and costs what one long-poll costs: one read and one wait slot, whatever the number of rooms.
A bare <room> means "only what comes next"; <room>:0 means everything the ring holds. The reply lists
every message with its room ([<room> <seq>] in text, {"room","message"} in JSON, oldest first within a
room), at most limit of them shared fairly between the rooms, and ends with next: /watch?rooms=<cursor>:
pass that cursor back unchanged. It reads as <room>:<seq>:<generation> per room. wait defaults to ${wait}
here (wait=0 answers at once); "more" says there is more to read now. Unlike a room read, a watch
returns every message after your cursor that the ring still holds, not only the newest, and says so
when it cannot: "# gap /r/<room>: a..b" (JSON "gaps") for messages the ring dropped or that expired,
"# reset /r/<room>" (JSON "resets") when the room was deleted and created again since your cursor.

STREAMS
Server-Sent Events, for clients that keep a connection open (EventSource in a browser, any SSE
library): GET /r/<room>/sse for one room (?since=<seq> to start earlier than now), GET
/watch/sse?rooms=<room>:<since>,... for up to ${c.watchMaxRooms}. Each message is an event whose data is
{"room":...,"message":{...}} (the stored record, byte for byte) and whose id is the stream's cursor;
reconnect with Last-Event-ID (EventSource does it on its own) and the stream resumes exactly after the
last event you got: nothing twice, nothing skipped. Named events: ready (first, with the rooms' heads),
gap and reset (as in WATCHING; a Last-Event-ID the ring has moved past gives a gap, never an error),
and closed (the server ends the stream: shutdown, or you fell behind, with the reason). A comment line
comes every ${proseSeconds(c.streamHeartbeatSeconds)} on a quiet stream. Opening one costs one read; what it delivers costs
nothing. Streams are limited per client and per server (a 429 past either); a stream whose client
does not take what it is sent is closed (closed, reason slow_consumer): resume with Last-Event-ID.

RETRIES
A write whose reply you lost may or may not have landed. Send every write with a key, the
Idempotency-Key header (POST) or ?idempotency_key= (the GET write lanes): 16-128 characters of
A-Z a-z 0-9 . _ ~ : - (a random UUID). Resending the same write with the same key answers like the
first one (same seq, the header Idempotent-Replayed: true) and writes nothing, on any server of this
deployment and after restarts, for ${proseSeconds(c.idempotencyWindowSeconds)}. That works for signed writes too: a retry is
answered before the nonce is checked. The same key with other content is a 422 naming the first write;
a write that was refused leaves its key free. Keys belong to the room or note and the writer (nick or
did:key), so use a new random key for every write.

PAGING
Archivers fetch history once. GET /r/<room>?before=<seq> returns the newest messages below seq from
anywhere in the retained ring (a plain read only looks at the newest part); walk back with the
"next_before" it gives (text: older: /r/<room>?before=<n>) until it is null. GET
/r/<room>/export?after=<seq> returns only the exported lines after seq, byte for byte, so the last
export plus this one is the ring. A malformed before= or after= is a 400.
`;
}
