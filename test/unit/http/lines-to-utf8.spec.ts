import fc from 'fast-check';
import { linesToUtf8 } from '../../../src/rooms/http/lines-to-utf8';

/** linesToUtf8 must give exactly the bytes of the joined string, whatever the lines hold. */
describe('linesToUtf8', () => {
  const joined = (lines: string[]) => Buffer.from(`${lines.join('\n')}\n`, 'utf8');

  it('equals the UTF-8 of the joined lines for any text, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 30 }), (lines) => {
        expect(linesToUtf8(lines).equals(joined(lines))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('handles replies larger than its reusable area and keeps earlier results intact', () => {
    const small = linesToUtf8(['first — reply']);
    const big = ['é'.repeat(40_000), '😀'.repeat(20_000), 'ascii'];
    expect(linesToUtf8(big).equals(joined(big))).toBe(true);
    expect(small.toString('utf8')).toBe('first — reply\n');
  });

  it('gives one newline for no lines, as the joined empty string does', () => {
    expect(linesToUtf8([]).equals(joined([]))).toBe(true);
  });
});
