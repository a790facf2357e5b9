import fc from 'fast-check';
import { hasClass, nameClasses, RoomClass } from '../../../src/common/names';

const CLASSES: RoomClass[] = ['p', 'mb', 'd', 'e'];

/** The definition of §3.2 as written: split on dashes, examine every segment but the last while it is a class. */
function classesBySplitting(name: string): Set<string> {
  const segments = name.split('-');
  const classes = new Set<string>();
  for (let i = 0; i < segments.length - 1; i++) {
    if (!(CLASSES as string[]).includes(segments[i])) break;
    classes.add(segments[i]);
  }
  return classes;
}

// Names built from class-like pieces and dashes, so the interesting shapes (mb-p-x, e-, p--x) are common.
const pieces = fc.constantFrom('p', 'mb', 'd', 'e', 'm', 'b', 'pe', 'x', '-', '--', 'mbx', '0');
const names = fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join(''));

describe('room classes (§3.2)', () => {
  it.each([
    ['mb-p-x', ['mb', 'p']],
    ['x-mb-y', []],
    ['e-p', ['e']],
    ['mb-', ['mb']],
    ['p--x', ['p']],
    ['mb', []],
    ['mbp-x', []],
  ])('%s has classes %j', (name, expected) => {
    expect([...nameClasses(name)].sort()).toEqual([...expected].sort());
  });

  it('nameClasses and hasClass agree with splitting on dashes, for any name', () => {
    fc.assert(
      fc.property(names, (name) => {
        const expected = classesBySplitting(name);
        expect(new Set(nameClasses(name))).toEqual(expected);
        for (const cls of CLASSES) expect(hasClass(name, cls)).toBe(expected.has(cls));
      }),
      { numRuns: 2000 },
    );
  });
});
