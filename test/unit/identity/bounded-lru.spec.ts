import { BoundedLru } from '../../../src/identity/bounded-lru';

describe('BoundedLru', () => {
  it('never holds more than its capacity and evicts the least recently used entry', () => {
    const lru = new BoundedLru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3);
    expect(lru.size).toBe(2);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
  });

  it('replaces an existing key without growing', () => {
    const lru = new BoundedLru<string, number>(2);
    lru.set('a', 1);
    lru.set('a', 2);
    expect(lru.size).toBe(1);
    expect(lru.get('a')).toBe(2);
  });

  it('keeps falsy values such as false and null', () => {
    const lru = new BoundedLru<string, boolean | null>(3);
    lru.set('f', false);
    lru.set('n', null);
    expect(lru.get('f')).toBe(false);
    expect(lru.get('n')).toBeNull();
  });

  it('refuses a capacity below one', () => {
    expect(() => new BoundedLru(0)).toThrow(RangeError);
  });
});
