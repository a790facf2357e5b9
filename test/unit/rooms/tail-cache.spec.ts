import {
  parseAppendedRecord,
  parseRecordLine,
  recordFootprint,
  StoredRecord,
  unsignedRecordLine,
} from '../../../src/rooms/read-side/stored-record';
import { RecordDeque } from '../../../src/rooms/ring/record-deque';
import { TailCache } from '../../../src/rooms/ring/tail-cache';

function record(seq: number, text: string): StoredRecord {
  return parseRecordLine(unsignedRecordLine(seq, '2026-11-22T08:00:00.000000Z', 'nick', text))!;
}

describe('record footprint', () => {
  it('charges an ASCII record about twice its stored size plus a fixed cost', () => {
    const r = record(1, 'x'.repeat(1000));
    expect(recordFootprint(r)).toBeGreaterThan(2 * 1000);
    expect(recordFootprint(r)).toBeLessThan(2 * r.bytes + 400);
  });

  it('charges two bytes per character once any character is outside ASCII', () => {
    const ascii = record(1, 'a'.repeat(500));
    const wide = record(1, `${'a'.repeat(499)}é`);
    expect(recordFootprint(wide)).toBeGreaterThan(1.9 * recordFootprint(ascii) - 400);
  });
});

describe('RecordDeque', () => {
  it('keeps ring bytes and footprint in step as records come and go', () => {
    const tail = new RecordDeque(3000);
    const records = [1, 2, 3, 4].map((seq) => record(seq, 'y'.repeat(1000)));
    let footprint = 0;
    for (const r of records) footprint += tail.push(r);
    expect(tail.length).toBe(2); // 1 KB records in a 3,000-byte window
    expect(tail.bytes).toBe(records[2].bytes + records[3].bytes);
    expect(tail.footprint).toBe(recordFootprint(records[2]) + recordFootprint(records[3]));
    expect(footprint).toBe(tail.footprint);
    expect(tail.dropBefore(4)).toBe(recordFootprint(records[2]));
    expect(tail.footprint).toBe(recordFootprint(records[3]));
  });
});

describe('TailCache', () => {
  it('evicts least recently used tails once their footprint, not their ring bytes, exceeds the budget', () => {
    const text = 'z'.repeat(1000);
    const one = recordFootprint(record(1, text));
    // Room for three records' footprint but five records' ring bytes: footprint must decide.
    const cache = new TailCache(3 * one + 10);
    for (const room of ['a', 'b', 'c', 'd']) {
      const tail = new RecordDeque(1 << 20);
      tail.push(record(1, text));
      cache.put(room, tail);
    }
    expect(cache.size).toBe(3);
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.footprint).toBe(3 * one);
    cache.get('b'); // b becomes most recent
    const grown = cache.peek('d')!;
    cache.adjust('d', grown.push(record(2, text)));
    expect(cache.peek('c')).toBeUndefined(); // c was least recently used after b's read
    expect(cache.peek('b')).toBeDefined();
    expect(cache.footprint).toBeLessThanOrEqual(3 * one + 10);
  });
});

describe('parseAppendedRecord', () => {
  it('answers the line being applied once for every projection that asks, and follows a new line', () => {
    const first = unsignedRecordLine(1, '2026-11-22T08:00:00.000000Z', 'a', 'one');
    const second = unsignedRecordLine(2, '2026-11-22T08:00:01.000000Z', 'b', 'two');
    const parsed = parseAppendedRecord(first);
    expect(parsed).toEqual(parseRecordLine(first));
    expect(parseAppendedRecord(first)).toBe(parsed); // the same object: parsed once
    expect(parseAppendedRecord(second)?.seq).toBe(2);
    expect(parseAppendedRecord('not json')).toBeNull();
  });
});
