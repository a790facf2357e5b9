import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  decodeFrame,
  encodeFrame,
  FRAME_HEADER_BYTES,
  frameChecksum,
  MAX_PAYLOAD_BYTES,
} from '../../../src/log/file/frame';

const FORMAT_MD = join(__dirname, '../../../src/log/file/FORMAT.md');

/** The bytes of the (first) hex dump under the section `heading` of FORMAT.md. */
function workedExampleBytes(heading = '## Worked example'): Buffer {
  const doc = readFileSync(FORMAT_MD, 'utf8');
  const section = doc.slice(doc.indexOf(heading));
  const dump = section.slice(
    section.indexOf('```text') + 7,
    section.indexOf('```', section.indexOf('```text') + 7),
  );
  const bytes: number[] = [];
  for (const line of dump.split('\n')) {
    const match = /^[0-9a-f]{8} {2}((?:[0-9a-f]{2} ?)+)/.exec(line);
    if (match)
      bytes.push(
        ...match[1]
          .trim()
          .split(' ')
          .map((h) => parseInt(h, 16)),
      );
  }
  return Buffer.from(bytes);
}

describe('frame', () => {
  it('round-trips a payload and reports the frame size', () => {
    const frame = encodeFrame(Buffer.from('hello'));
    const decoded = decodeFrame(frame, 0);
    expect(decoded).toMatchObject({ kind: 'record', frameBytes: FRAME_HEADER_BYTES + 5 });
    expect(decoded.kind === 'record' && decoded.payload.toString()).toBe('hello');
  });

  it('decodes a frame at an offset inside a larger buffer, and an empty payload', () => {
    const buffer = Buffer.concat([encodeFrame(Buffer.from('a')), encodeFrame(Buffer.alloc(0))]);
    const second = decodeFrame(buffer, 9);
    expect(second).toMatchObject({ kind: 'record', frameBytes: 8 });
    expect(second.kind === 'record' && second.payload.length).toBe(0);
  });

  it('copies the payload, so later changes by the caller do not reach the frame', () => {
    const payload = Buffer.from('mutable');
    const frame = encodeFrame(payload);
    payload.fill(0);
    expect(decodeFrame(frame, 0)).toMatchObject({ kind: 'record' });
  });

  it('matches the batch worked example of FORMAT.md byte for byte: bit 31 marks a continued batch', () => {
    const expected = Buffer.concat([
      encodeFrame(Buffer.from('hello'), true),
      encodeFrame(Buffer.from('world!')),
    ]);
    expect(workedExampleBytes('## Batches').toString('hex')).toBe(expected.toString('hex'));
    expect(expected.readUInt32LE(4)).toBe(0x421c14a2);
    const first = decodeFrame(expected, 0);
    expect(first).toMatchObject({ kind: 'record', frameBytes: 13, continues: true });
    expect(decodeFrame(expected, 13)).toMatchObject({ kind: 'record', frameBytes: 14, continues: false });
  });

  it('matches the worked example of FORMAT.md byte for byte', () => {
    const expected = Buffer.concat([encodeFrame(Buffer.from('hello')), encodeFrame(Buffer.from('world!'))]);
    expect(workedExampleBytes().toString('hex')).toBe(expected.toString('hex'));
    expect(expected.readUInt32LE(4)).toBe(0x5cac007a);
    expect(expected.readUInt32LE(13 + 4)).toBe(0x2ed2217a);
  });

  it('uses the standard CRC-32 over the length field then the payload', () => {
    const length = Buffer.from([9, 0, 0, 0]);
    // Check value of CRC-32/ISO-HDLC is crc32("123456789") = 0xCBF43926.
    expect(frameChecksum(Buffer.alloc(0), Buffer.from('123456789'))).toBe(0xcbf43926);
    const whole = Buffer.concat([length, Buffer.from('123456789')]);
    expect(frameChecksum(length, Buffer.from('123456789'))).toBe(frameChecksum(Buffer.alloc(0), whole));
  });

  describe('torn frames (the buffer ends inside the frame)', () => {
    const frame = encodeFrame(Buffer.from('payload'));
    it.each([0, 1, 7])('with %i header bytes, needs the 8-byte header', (cut) => {
      expect(decodeFrame(frame.subarray(0, cut), 0)).toEqual({ kind: 'torn', needed: 8 });
    });
    it('with a whole header and part of the payload, needs the whole frame', () => {
      expect(decodeFrame(frame.subarray(0, 10), 0)).toEqual({ kind: 'torn', needed: frame.length });
    });
  });

  describe('bad frames', () => {
    it('rejects a flipped payload bit', () => {
      const frame = encodeFrame(Buffer.from('payload'));
      frame[FRAME_HEADER_BYTES + 3] ^= 0x01;
      expect(decodeFrame(frame, 0)).toMatchObject({ kind: 'bad', reason: expect.stringMatching(/checksum/) });
    });

    it('rejects a flipped length bit even when the shorter frame is readable', () => {
      const frame = encodeFrame(Buffer.from('payload'));
      frame[0] ^= 0x01; // 7 -> 6: the 6-byte "payload" is all there
      expect(decodeFrame(frame, 0)).toMatchObject({ kind: 'bad' });
    });

    it('rejects zero-filled bytes instead of reading them as empty records', () => {
      expect(decodeFrame(Buffer.alloc(64), 0)).toMatchObject({ kind: 'bad' });
    });

    it('rejects a length above the maximum before looking for its bytes', () => {
      const header = Buffer.alloc(8);
      header.writeUInt32LE(MAX_PAYLOAD_BYTES + 1, 0);
      expect(decodeFrame(header, 0)).toMatchObject({ kind: 'bad', reason: expect.stringMatching(/exceeds/) });
      header.writeUInt32LE(0xffffffff, 0);
      expect(decodeFrame(header, 0)).toMatchObject({ kind: 'bad' });
    });
  });

  it('refuses to encode a payload above the maximum', () => {
    expect(() => encodeFrame(Buffer.alloc(MAX_PAYLOAD_BYTES + 1))).toThrow(RangeError);
  });
});
