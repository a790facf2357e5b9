import { completeLines } from '../../../src/rooms/ring/complete-lines';

/** The obvious definition the byte-wise reader must agree with. */
function bySplitting(chunk: Buffer, startsMidLine: boolean): string[] {
  const lines = chunk.toString('utf8').split('\n');
  lines.pop();
  if (startsMidLine) lines.shift();
  return lines;
}

describe('completeLines', () => {
  const cases: Array<[string, string, boolean]> = [
    ['whole lines', '{"seq":1}\n{"seq":2}\n', false],
    ['a torn last line', '{"seq":1}\n{"seq":2}\n{"se', false],
    ['a chunk starting mid-record', 'q":0}\n{"seq":1}\n{"seq":2}\n', true],
    ['mid-record start and torn end', 'q":0}\n{"seq":1}\n{"s', true],
    ['no newline at all', '{"seq":1', false],
    ['no newline, mid-record', 'eq":1', true],
    ['empty', '', false],
    ['empty lines kept', '\n\n{"seq":1}\n', false],
    ['multi-byte text', '{"text":"héllo — 日本 🙂"}\n{"text":"ß"}\n', false],
  ];
  it.each(cases)('%s', (_name, text, startsMidLine) => {
    const chunk = Buffer.from(text, 'utf8');
    expect(completeLines(chunk, startsMidLine)).toEqual(bySplitting(chunk, startsMidLine));
  });

  it('drops a first line cut inside a multi-byte character', () => {
    const whole = Buffer.from('{"text":"日本"}\n{"text":"ok"}\n', 'utf8');
    expect(completeLines(whole.subarray(11), true)).toEqual(['{"text":"ok"}']);
  });
});
