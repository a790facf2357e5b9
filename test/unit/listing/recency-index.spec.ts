import { RecencyIndex } from '../../../src/listing/recency-index';

describe('RecencyIndex', () => {
  it('orders newest first, then larger ring, then name descending', () => {
    const index = new RecencyIndex();
    index.upsert({ name: 'b', at: 10, bytes: 5 });
    index.upsert({ name: 'a', at: 10, bytes: 5 });
    index.upsert({ name: 'c', at: 10, bytes: 9 });
    index.upsert({ name: 'old', at: 1, bytes: 100 });
    index.upsert({ name: 'new', at: 20, bytes: 1 });
    expect(index.first(10).map((k) => k.name)).toEqual(['new', 'c', 'b', 'a', 'old']);
    expect([index.size, index.bytes]).toEqual([5, 120]);
  });

  it('moves a room on update, removes it, and keeps the byte total exact', () => {
    const index = new RecencyIndex();
    for (const [i, name] of ['a', 'b', 'c'].entries()) index.upsert({ name, at: i, bytes: 10 });
    index.upsert({ name: 'a', at: 5, bytes: 30 });
    expect(index.first(2).map((k) => k.name)).toEqual(['a', 'c']);
    index.remove('c');
    index.remove('missing');
    expect(index.first(5).map((k) => k.name)).toEqual(['a', 'b']);
    expect([index.size, index.bytes]).toEqual([2, 40]);
  });
});
