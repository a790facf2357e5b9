import { BadRequestError } from '../../../src/common/errors/bad-request.error';
import { sweptNoteValue } from '../../../src/notes/note-write.rules';
import { sweptMessageText } from '../../../src/rooms/room-write.rules';

const EMPTY =
  'empty text: nothing is left once invisible characters (newlines, control and format characters) ' +
  'become spaces and the ends are trimmed.';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('swept free text (contract §5.2 wording)', () => {
  it('sweeps invisibles to spaces and trims', () => {
    expect(sweptMessageText('  hi\nthere\u200b ')).toBe(sweptMessageText('hi there'));
    expect(sweptNoteValue('\tvalue\r\n')).toBe('value');
  });

  it('names what an empty message text and note value need', () => {
    expect(refusal(() => sweptMessageText('\n\u200b '))).toBe(
      `${EMPTY} Send at least one visible character.`,
    );
    expect(refusal(() => sweptNoteValue(' \n'))).toBe(
      `${EMPTY} A note value needs at least one visible character.`,
    );
  });

  it('names the cap, how to split and the JSON POST for over-long text', () => {
    expect(refusal(() => sweptMessageText('x'.repeat(4097)))).toBe(
      'text too long: 4097 characters after the single-line sweep; the limit is 4096. Split it into ' +
        'several messages; for long non-Latin text use POST /r/<room> with a JSON body (a URL carries ' +
        'far fewer characters).',
    );
    expect(refusal(() => sweptNoteValue('y'.repeat(8193)))).toBe(
      'text too long: 8193 characters after the single-line sweep; the limit for a note value is 8192. ' +
        'Split it over several keys; for long non-Latin values use POST /kv/<ns>/<key> with a JSON body ' +
        '(a URL carries far fewer characters).',
    );
    expect(sweptMessageText('z'.repeat(4096))).toHaveLength(4096);
  });
});
