import { unsignedRecordLine } from '../../../src/rooms/read-side/stored-record';
import { ByteSource, offsetAfterSeq, recordsBefore, recordsFrom } from '../../../src/rooms/ring/ring-seek';

/** A ring file's bytes: records `from..to`, every `junkEvery`-th followed by an unparsable line. */
function ring(from: number, to: number, options: { junkEvery?: number; pad?: number } = {}): Buffer {
  let text = '';
  for (let seq = from; seq <= to; seq++) {
    text += `${unsignedRecordLine(seq, '2026-01-01T00:00:00.000000Z', 'ann', `m${seq} ${'x'.repeat(options.pad ?? 0)}`)}\n`;
    if (options.junkEvery && seq % options.junkEvery === 0) text += '{"torn\n';
  }
  return Buffer.from(text, 'utf8');
}

function source(bytes: Buffer): ByteSource & { reads: number } {
  const counted = {
    size: bytes.length,
    reads: 0,
    read: (start: number, end: number) => {
      counted.reads++;
      return bytes.subarray(start, end);
    },
  };
  return counted;
}

const seqs = (records: ReadonlyArray<{ seq: number }>) => records.map((r) => r.seq);

describe('ring-seek: finding records by seq in a ring file without an index', () => {
  it('finds the first line after any seq, skipping torn lines, in a logarithmic number of reads', () => {
    const bytes = ring(101, 4000, { junkEvery: 7, pad: 40 });
    const file = source(bytes);
    for (const seq of [0, 100, 101, 102, 777, 2500, 3999, 4000, 5000]) {
      const at = offsetAfterSeq(file, seq);
      const next = recordsFrom(file, at, { maxRecords: 1, maxBytes: Infinity });
      expect([seq, seqs(next.map((p) => p.record))]).toEqual([
        seq,
        seq >= 4000 ? [] : [Math.max(101, seq + 1)],
      ]);
    }
    file.reads = 0;
    offsetAfterSeq(file, 2222);
    expect(file.reads).toBeLessThan(40); // ~240 KB in 4 KiB reads: a scan would take ~60
  });

  it('reads forward within record and byte limits, and stops before a seq', () => {
    const file = source(ring(1, 50, { pad: 100 }));
    const from = offsetAfterSeq(file, 10);
    expect(seqs(recordsFrom(file, from, { maxRecords: 5, maxBytes: Infinity }).map((p) => p.record))).toEqual(
      [11, 12, 13, 14, 15],
    );
    const small = recordsFrom(file, from, { maxRecords: 100, maxBytes: 400 });
    expect(small.length).toBeGreaterThan(0);
    expect(small.length).toBeLessThan(4);
    expect(
      seqs(
        recordsFrom(file, from, { maxRecords: 100, maxBytes: Infinity, beforeSeq: 14 }).map((p) => p.record),
      ),
    ).toEqual([11, 12, 13]);
    const one = recordsFrom(file, from, { maxRecords: 100, maxBytes: 1 });
    expect(seqs(one.map((p) => p.record))).toEqual([11]); // one record always fits
  });

  it('reads the newest records before an offset, across chunk boundaries', () => {
    const bytes = ring(1, 3000, { pad: 60, junkEvery: 11 });
    const file = source(bytes);
    expect(seqs(recordsBefore(file, offsetAfterSeq(file, 2999), 4))).toEqual([2996, 2997, 2998, 2999]);
    expect(seqs(recordsBefore(file, offsetAfterSeq(file, 3), 10))).toEqual([1, 2, 3]);
    const many = recordsBefore(file, offsetAfterSeq(file, 2000), 1500);
    expect(seqs(many)).toEqual(Array.from({ length: 1500 }, (_, i) => 501 + i));
  });

  it('ignores an incomplete last line (a write in progress)', () => {
    const bytes = Buffer.concat([ring(1, 3), Buffer.from('{"seq":4,"ts":"2026')]);
    const file = source(bytes);
    expect(offsetAfterSeq(file, 3)).toBe(bytes.length);
    expect(seqs(recordsFrom(file, 0, { maxRecords: 10, maxBytes: Infinity }).map((p) => p.record))).toEqual([
      1, 2, 3,
    ]);
  });
});
