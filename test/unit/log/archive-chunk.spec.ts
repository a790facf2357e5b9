import { ArchiveDamagedError } from '../../../src/log/nats/archive/archive-damaged.error';
import {
  chunkEntry,
  chunkMetadata,
  encodeRecord,
  openChunk,
  sealChunk,
} from '../../../src/log/nats/archive/archive-chunk';
import { chunkAt, archivedFrom } from '../../../src/log/nats/archive/archive-reach';
import { StreamRecord } from '../../../src/log/nats/stream-reader';

const record = (offset: number, extra: Partial<StreamRecord> = {}): StreamRecord => ({
  offset,
  subject: 'chat.s.v2.r:a',
  payload: Buffer.from(`{"n":${offset}}`),
  ...extra,
});

/** The chunk format (src/log/nats/archive/FORMAT.md): its worked example, round trips, damage. */
describe('archive chunks', () => {
  it('is the worked example of FORMAT.md: 98 bytes, named by its offsets', () => {
    const { entry, bytes } = sealChunk(7, [
      encodeRecord({ offset: 7, subject: 'chat.s.v2.r:a', payload: Buffer.from('{}'), expected: 0 }),
    ]);
    expect(bytes).toHaveLength(98);
    expect(entry).toMatchObject({
      name: 'chunk-0000000000000007-0000000000000008',
      first: 7,
      next: 8,
      records: 1,
    });
  });

  it('gives back every field it was given, the optional headers absent or present', () => {
    const records = [record(10), record(11, { expected: 0, floor: 9 }), record(12, { expected: 11 })];
    const { entry, bytes } = sealChunk(10, records.map(encodeRecord));
    const listed = chunkEntry(entry.name, chunkMetadata(entry))!;
    expect(openChunk(listed, bytes)).toEqual(records);
  });

  it('refuses, by name, a flipped byte, a cut chunk, and a digest other than the listed one', () => {
    const { entry, bytes } = sealChunk(0, [record(0), record(1)].map(encodeRecord));
    for (const at of [0, 20, 40, bytes.length - 1]) {
      const damaged = Buffer.from(bytes);
      damaged[at] ^= 1;
      expect(() => openChunk(entry, damaged)).toThrow(ArchiveDamagedError);
      expect(() => openChunk(entry, damaged)).toThrow(`archive chunk ${entry.name} is damaged`);
    }
    expect(() => openChunk(entry, bytes.subarray(0, bytes.length - 5))).toThrow(ArchiveDamagedError);
    expect(() => openChunk({ ...entry, sha256: '0'.repeat(64) }, bytes)).toThrow(/listed as 0{64}/);
  });

  it('finds the chunk holding an offset and where the contiguous chunks end', () => {
    const entries = [
      sealChunk(0, [record(0), record(1)].map(encodeRecord)).entry,
      sealChunk(2, [record(2)].map(encodeRecord)).entry,
      sealChunk(5, [record(5)].map(encodeRecord)).entry,
    ];
    expect(chunkAt(entries, 1)?.first).toBe(0);
    expect(chunkAt(entries, 3)).toBeUndefined();
    expect(archivedFrom(entries, 0)).toBe(3);
    expect(archivedFrom(entries, 4)).toBe(4);
    expect(archivedFrom(entries, 5)).toBe(6);
  });
});
