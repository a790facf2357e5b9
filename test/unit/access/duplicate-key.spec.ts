import { duplicateKey, normaliseForDuplicates } from '../../../src/access/duplicate-key';

describe('duplicate-filter normalisation', () => {
  it('folds compatibility forms, invisibles, case, ref tokens and spacing', () => {
    expect(normaliseForDuplicates('  Hello\u200bWORLD\t\n again ')).toBe('hello world again');
    expect(normaliseForDuplicates('ＦＵＬＬＷＩＤＴＨ ﬁle')).toBe('fullwidth file'); // NFKC
    expect(normaliseForDuplicates('Große STRASSE')).toBe('grosse strasse'); // casefold, not toLowerCase
    expect(normaliseForDuplicates('buy now 422-6700abcd-1f2e please')).toBe('buy now please');
    expect(normaliseForDuplicates('buy now&ref=422-1-abcd please')).toBe('buy now please');
    expect(normaliseForDuplicates('buy now ref=422-ABCDEF01-1234 please')).toBe('buy now please'); // folded first
    expect(normaliseForDuplicates('keep 422-123456789-abcd')).toBe('keep 422-123456789-abcd'); // 9 hex: no token
  });

  it('gives one key to the copies a flood varies, and none to short texts', () => {
    const key = duplicateKey('lobby', 'Join my server at example dot com', 16);
    expect(key).not.toBeNull();
    expect(duplicateKey('lobby', '  JOIN my  server at example DOT com\u2028', 16)).toBe(key);
    expect(duplicateKey('other', 'Join my server at example dot com', 16)).not.toBe(key);
    expect(duplicateKey('lobby', 'fifteen chars!!', 16)).toBeNull(); // 15 code points
    expect(duplicateKey('lobby', 'sixteen chars!!!', 16)).not.toBeNull();
    expect(duplicateKey('lobby', '😀'.repeat(15), 16)).toBeNull(); // code points, not UTF-16 units
  });
});
