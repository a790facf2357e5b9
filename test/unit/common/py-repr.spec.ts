import { pyRepr } from '../../../src/common/py-compat/py-repr';

/** Expected strings are what CPython 3.12 prints for repr(value). */
describe('pyRepr', () => {
  it.each([
    ['plain', "'plain'"],
    ['', "''"],
    ['007a', "'007a'"],
    ["it's", `"it's"`],
    ['say "hi"', `'say "hi"'`],
    [`it's "x"`, `'it\\'s "x"'`],
    ['back\\slash', "'back\\\\slash'"],
    ['tab\there', "'tab\\there'"],
    ['line\nbreak\r', "'line\\nbreak\\r'"],
    ['\x00\x1b\x7f', "'\\x00\\x1b\\x7f'"],
  ])('quotes and escapes ASCII like Python: %j', (value, expected) => {
    expect(pyRepr(value)).toBe(expected);
  });

  it.each([
    ['héllo wörld', "'héllo wörld'"],
    ['日本語', "'日本語'"],
    ['😀', "'😀'"],
    ['\u00a0', "'\\xa0'"],
    ['\u0085', "'\\x85'"],
    ['\u00ad', "'\\xad'"],
    ['a\u200bb', "'a\\u200bb'"],
    ['\u2028\u2029', "'\\u2028\\u2029'"],
    ['\u3000', "'\\u3000'"],
    ['\ufeff', "'\\ufeff'"],
    ['\ue000', "'\\ue000'"],
    ['\u0378', "'\\u0378'"],
    ['\ud800', "'\\ud800'"],
    ['\u{e0001}', "'\\U000e0001'"],
    ['\u{10ffff}', "'\\U0010ffff'"],
  ])('keeps printable non-ASCII and escapes the rest: %j', (value, expected) => {
    expect(pyRepr(value)).toBe(expected);
  });

  it('keeps the ASCII space although its category (Zs) is non-printable', () => {
    expect(pyRepr('a b')).toBe("'a b'");
  });

  it('escapes only the quote it chose', () => {
    expect(pyRepr(`'`)).toBe(`"'"`);
    expect(pyRepr(`"`)).toBe(`'"'`);
    expect(pyRepr(`'"`)).toBe(`'\\'"'`);
  });
});
