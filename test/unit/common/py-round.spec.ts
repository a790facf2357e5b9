import { formatFixed, roundHalfEven } from '../../../src/common/py-compat/py-round';

describe("Python's rounding", () => {
  it('round() goes half to even', () => {
    expect([0.5, 1.5, 2.5, 3.5, 2.4999, 2.5001, 4320, 0.2].map(roundHalfEven)).toEqual([
      0, 2, 2, 4, 2, 3, 4320, 0,
    ]);
  });

  it("f'{x:.Nf}' rounds the exact binary value, ties to even", () => {
    // Expected values are what CPython prints.
    expect(formatFixed(2.5, 0)).toBe('2');
    expect(formatFixed(3.5, 0)).toBe('4');
    expect(formatFixed(7.5, 0)).toBe('8');
    expect(formatFixed(1.25, 1)).toBe('1.2');
    expect(formatFixed(1.75, 1)).toBe('1.8');
    expect(formatFixed(0.25, 1)).toBe('0.2');
    expect(formatFixed(2.675, 2)).toBe('2.67'); // 2.67499999… in binary: not a tie
    expect(formatFixed(0.35, 1)).toBe('0.3'); // 0.34999…
    expect(formatFixed(2, 1)).toBe('2.0');
    expect(formatFixed(1.3333333, 0)).toBe('1');
    expect(formatFixed(-2.5, 0)).toBe('-2');
  });
});
