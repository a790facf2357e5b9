import { execFileSync } from 'node:child_process';
import { casefold } from '../../../src/common/py-compat/casefold';
import { CASEFOLD_ENTRY_COUNT, CASEFOLD_TABLE } from '../../../src/common/py-compat/casefold-table';

/** Every scalar value from `from` to `to` (surrogates skipped), as one string. */
function codePoints(from: number, to: number): string {
  const chars: string[] = [];
  for (let cp = from; cp <= to; cp++) if (cp < 0xd800 || cp > 0xdfff) chars.push(String.fromCodePoint(cp));
  return chars.join('');
}

/** Python's own answer, one folded string per input character (NUL-separated; NUL itself is skipped). */
function pythonCasefolds(chars: readonly string[]): string[] {
  const script =
    'import sys; cs = sys.stdin.buffer.read().decode("utf-8").split("\\0"); ' +
    'sys.stdout.buffer.write("\\0".join(c.casefold() for c in cs).encode("utf-8"))';
  const input = Buffer.from(chars.join('\0'), 'utf8');
  return execFileSync('python3', ['-c', script], { input, maxBuffer: 64 << 20 })
    .toString('utf8')
    .split('\0');
}

describe('casefold (Python str.casefold)', () => {
  it('folds what toLowerCase does not', () => {
    expect(casefold('Straße')).toBe('strasse');
    expect(casefold('ﬁle')).toBe('file');
    expect(casefold('ΌΣΟΣ ὅσος')).toBe('όσοσ ὅσοσ'); // every sigma folds to σ, final or not
    expect(casefold('İ')).toBe('i\u0307');
    expect(casefold('ᏸ')).toBe('Ᏸ'); // Cherokee folds to uppercase, the opposite of toLowerCase
    expect(casefold('ŉ')).toBe('ʼn');
    expect(casefold('plain ASCII Text')).toBe('plain ascii text');
  });

  it('matches python3 on every code point', () => {
    const chars = Array.from(codePoints(1, 0x10ffff));
    const expected = pythonCasefolds(chars);
    expect(expected).toHaveLength(chars.length);
    const differing = chars.filter((char, i) => casefold(char) !== expected[i]);
    expect(differing.map((char) => char.codePointAt(0)!.toString(16))).toEqual([]);
    expect(casefold(chars.join(''))).toBe(expected.join('')); // and whole strings fold per character
  });

  it('has the table the generator wrote', () => {
    expect(CASEFOLD_TABLE.join(' ').split(' ')).toHaveLength(CASEFOLD_ENTRY_COUNT);
  });
});
