import { createHash } from 'node:crypto';
import { StreamRecord } from '../stream-reader';
import { ArchiveDamagedError } from './archive-damaged.error';

/** The chunk format (FORMAT.md): "ACHUNK01", first, next, records; the records; a SHA-256 trailer. */
const MAGIC = Buffer.from('ACHUNK01');
const HEADER_BYTES = MAGIC.length + 8 + 8 + 4;
const DIGEST_BYTES = 32;
const EXPECTED = 1;
const FLOOR = 2;

/** One chunk as the bucket lists it: its name and the metadata written with it. */
export interface ChunkEntry {
  readonly name: string;
  readonly first: number;
  readonly next: number;
  readonly records: number;
  readonly sha256: string;
}

export function chunkName(first: number, next: number): string {
  return `chunk-${String(first).padStart(16, '0')}-${String(next).padStart(16, '0')}`;
}

/** A stored object's name and metadata as a chunk entry, or null for anything else. */
export function chunkEntry(name: string, metadata: Record<string, string> | undefined): ChunkEntry | null {
  const m = /^chunk-(\d{16})-(\d{16})$/.exec(name);
  if (m === null || metadata === undefined) return null;
  const entry = {
    name,
    first: Number(m[1]),
    next: Number(m[2]),
    records: Number(metadata.records),
    sha256: metadata.sha256 ?? '',
  };
  return entry.records === entry.next - entry.first ? entry : null;
}

export function chunkMetadata(entry: ChunkEntry): Record<string, string> {
  return {
    first: String(entry.first),
    next: String(entry.next),
    records: String(entry.records),
    sha256: entry.sha256,
  };
}

/** The bytes one record takes in a chunk (chunk boundaries are counted in these). */
export function encodeRecord(record: StreamRecord): Buffer {
  const subject = Buffer.from(record.subject);
  const flags = (record.expected === undefined ? 0 : EXPECTED) | (record.floor === undefined ? 0 : FLOOR);
  const head = Buffer.alloc(8 + 2 + subject.length + 1);
  head.writeBigUInt64BE(BigInt(record.offset), 0);
  head.writeUInt16BE(subject.length, 8);
  subject.copy(head, 10);
  head.writeUInt8(flags, 10 + subject.length);
  const optional: Buffer[] = [];
  for (const value of [record.expected, record.floor]) {
    if (value === undefined) continue;
    const field = Buffer.alloc(8);
    field.writeBigUInt64BE(BigInt(value));
    optional.push(field);
  }
  const length = Buffer.alloc(4);
  length.writeUInt32BE(record.payload.length);
  return Buffer.concat([head, ...optional, length, record.payload]);
}

/** A whole chunk from its encoded records, with the entry the bucket lists it under. */
export function sealChunk(
  first: number,
  encoded: readonly Buffer[],
): { readonly entry: ChunkEntry; readonly bytes: Buffer } {
  const next = first + encoded.length;
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeBigUInt64BE(BigInt(first), 8);
  header.writeBigUInt64BE(BigInt(next), 16);
  header.writeUInt32BE(encoded.length, 24);
  const body = Buffer.concat([header, ...encoded]);
  const digest = createHash('sha256').update(body).digest();
  const entry = {
    name: chunkName(first, next),
    first,
    next,
    records: encoded.length,
    sha256: digest.toString('hex'),
  };
  return { entry, bytes: Buffer.concat([body, digest]) };
}

/**
 * The records of a stored chunk, after checking its trailer against its bytes and against the digest
 * it is listed with, and that it holds exactly `first..next − 1` in order. Throws ArchiveDamagedError
 * naming the chunk otherwise.
 */
export function openChunk(entry: ChunkEntry, bytes: Buffer): StreamRecord[] {
  const damaged = (what: string) => new ArchiveDamagedError(entry.name, what);
  if (bytes.length < HEADER_BYTES + DIGEST_BYTES)
    throw damaged(`${bytes.length} bytes, shorter than a chunk`);
  const body = bytes.subarray(0, bytes.length - DIGEST_BYTES);
  const trailer = bytes.subarray(bytes.length - DIGEST_BYTES).toString('hex');
  const actual = createHash('sha256').update(body).digest('hex');
  if (actual !== trailer) throw damaged(`its bytes hash to ${actual}, its trailer says ${trailer}`);
  if (actual !== entry.sha256) throw damaged(`SHA-256 ${actual}, listed as ${entry.sha256}`);
  if (!body.subarray(0, MAGIC.length).equals(MAGIC)) throw damaged('not a chunk (magic)');
  const first = Number(body.readBigUInt64BE(8));
  const next = Number(body.readBigUInt64BE(16));
  if (first !== entry.first || next !== entry.next) throw damaged(`it holds ${first}..${next - 1}`);
  const records: StreamRecord[] = [];
  let at = HEADER_BYTES;
  try {
    while (at < body.length) {
      const offset = Number(body.readBigUInt64BE(at));
      const subjectLength = body.readUInt16BE(at + 8);
      const subject = body.toString('utf8', at + 10, at + 10 + subjectLength);
      at += 10 + subjectLength;
      const flags = body.readUInt8(at++);
      const expected = flags & EXPECTED ? Number(body.readBigUInt64BE(at)) : undefined;
      if (flags & EXPECTED) at += 8;
      const floor = flags & FLOOR ? Number(body.readBigUInt64BE(at)) : undefined;
      if (flags & FLOOR) at += 8;
      const length = body.readUInt32BE(at);
      at += 4;
      if (at + length > body.length) throw new RangeError('payload past the end');
      records.push({ offset, subject, payload: body.subarray(at, at + length), expected, floor });
      at += length;
    }
  } catch (error) {
    throw damaged(`a record at byte ${at} is cut short (${(error as Error).message})`);
  }
  records.forEach((record, i) => {
    if (record.offset !== first + i)
      throw damaged(`record ${i} has offset ${record.offset}, not ${first + i}`);
  });
  if (records.length !== next - first) throw damaged(`${records.length} records, not ${next - first}`);
  return records;
}
