import { renderRoomText, renderRoomTextBytes } from '../../../src/rooms/http/room-text.renderer';
import { RoomView } from '../../../src/rooms/read-side/room-view';
import {
  parseRecordLine,
  signedRecordLine,
  unsignedRecordLine,
} from '../../../src/rooms/read-side/stored-record';

/** The bytes a text reply sends are the UTF-8 of renderRoomText, for every shape of view. */
describe('renderRoomTextBytes', () => {
  const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
  const records = [
    parseRecordLine(unsignedRecordLine(1, '2026-11-24T18:00:00.000001Z', 'alice', 'plain ascii'))!,
    parseRecordLine(unsignedRecordLine(2, '2026-11-24T18:00:01.000001Z', 'bob', 'ünïcödé — and 😀'))!,
    parseRecordLine(signedRecordLine(3, '2026-11-24T18:00:02.000001Z', did, 'signed', '7', 'x'.repeat(86)))!,
  ];
  const view = (over: Partial<RoomView>): RoomView => ({
    room: 'mb-room',
    records,
    firstSeq: 1,
    lastSeq: 3,
    generation: 1,
    ...over,
  });

  it.each<[string, RoomView, string[]]>([
    ['messages, signed and unsigned, non-ASCII', view({}), []],
    ['a budget footer', view({ room: 'plain' }), ['# budget: 3 writes left']],
    [
      'no messages, wait not held',
      view({ records: [], firstSeq: null, waitHeld: false, waitSeconds: 2.5, waitCause: 'busy' }),
      [],
    ],
  ])('%s', (_name, roomView, footers) => {
    const bytes = renderRoomTextBytes(roomView, footers);
    expect(bytes.equals(Buffer.from(renderRoomText(roomView, footers), 'utf8'))).toBe(true);
  });
});
