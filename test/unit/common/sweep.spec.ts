import { nameClasses } from '../../../src/common/names';
import { codePointLength, sweep } from '../../../src/common/sweep';

describe('the single-line sweep', () => {
  it('turns each invisible code point of the six categories into one space, then trims', () => {
    expect(sweep('a\tb\nc\rd')).toBe('a b c d');
    expect(sweep('x\u200by\u200dz\u00adw')).toBe('x y z w'); // Cf: ZWSP, ZWJ, soft hyphen
    expect(sweep('l\u2028p\u2029q')).toBe('l p q'); // Zl, Zp
    expect(sweep('p\ue000u')).toBe('p u'); // Co (private use)
    expect(sweep('s\ud800t')).toBe('s t'); // Cs (lone surrogate)
    expect(sweep('\u0085\u009fmid\u007f')).toBe('mid'); // C1 controls, DEL
    expect(sweep('tag\u{e0041}s')).toBe('tag s');
    expect(sweep('  keep  inner  ')).toBe('keep  inner');
    expect(sweep('\u3000wide\u00a0')).toBe('wide');
  });

  it('keeps variation selectors and normalises nothing', () => {
    expect(sweep('\u2764\ufe0f')).toBe('\u2764\ufe0f');
    expect(sweep('e\u0301')).toBe('e\u0301');
  });

  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('😀😀')).toBe(2);
    expect(codePointLength('abc')).toBe(3);
  });
});

describe('room classes', () => {
  it.each([
    ['p-x', ['p']],
    ['mb-p-x', ['mb', 'p']],
    ['e-p-x', ['e', 'p']],
    ['d-e-x', ['d', 'e']],
    ['x-mb-y', []],
    ['e-p', ['e']],
    ['p-', ['p']],
    ['lobby', []],
  ])('%s → %j', (name, classes) => expect([...nameClasses(name)]).toEqual(classes));
});
