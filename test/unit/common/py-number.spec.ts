import { parsePyFloat, parsePyInt } from '../../../src/common/py-compat/py-number';

describe('Python int() and float() parsing', () => {
  it.each([
    ['42', 42n],
    [' 7 ', 7n],
    ['+3', 3n],
    ['-3', -3n],
    ['1_000', 1000n],
    ['５', 5n],
    ['٣', 3n],
    ['𝟗', 9n],
    ['99999999999999999999999', 99999999999999999999999n],
  ])('int(%j) = %s', (raw, expected) => expect(parsePyInt(raw)).toBe(expected));

  it.each(['', ' ', '1.5', '0x10', '1__0', '_1', '1_', 'abc', '1e3', '--1'])('int(%j) fails', (raw) =>
    expect(parsePyInt(raw)).toBeNull(),
  );

  it.each([
    ['1.5', 1.5],
    [' 2 ', 2],
    ['1e1', 10],
    ['.5', 0.5],
    ['5.', 5],
    ['1_0.5', 10.5],
    ['inf', Infinity],
    ['-Infinity', -Infinity],
  ])('float(%j) = %s', (raw, expected) => expect(parsePyFloat(raw)).toBe(expected));

  it('reads nan and refuses garbage', () => {
    expect(parsePyFloat('NaN')).toBeNaN();
    for (const raw of ['', '.', 'e5', '1e', 'abc', '1..2', '1_', '0x1']) expect(parsePyFloat(raw)).toBeNull();
  });
});
