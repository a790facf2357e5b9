import { pyFloatRepr, pyRound } from '../../../src/common/py-compat/py-float';

describe('Python float helpers', () => {
  it('rounds like round(x, 4): the binary value, ties to even', () => {
    expect(pyRound(2 / 3, 4)).toBe(0.6667);
    expect(pyRound(4 / 9, 4)).toBe(0.4444);
    expect(pyRound(1 / 32, 4)).toBe(0.0312); // exact tie: half to even (toFixed says 0.0313)
    expect(pyRound(3 / 32, 4)).toBe(0.0938);
    expect(pyRound(1, 4)).toBe(1);
  });

  it('prints like repr(): a decimal point on integral values, Python exponents', () => {
    expect(pyFloatRepr(1)).toBe('1.0');
    expect(pyFloatRepr(0)).toBe('0.0');
    expect(pyFloatRepr(0.6667)).toBe('0.6667');
    expect(pyFloatRepr(0.0001)).toBe('0.0001');
    expect(pyFloatRepr(0.00001)).toBe('1e-05');
    expect(pyFloatRepr(1.5e16)).toBe('1.5e+16');
    expect(pyFloatRepr(123456)).toBe('123456.0');
  });
});
