import { appendFileSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { LogCorruptedError } from '../../../src/log/log.errors';
import { SegmentedEventLog } from '../../../src/log/file/segmented-event-log';
import { makeTempDir } from '../../support/temp-dir';
import { openLog, payloads, readAll, RecordingSink, segmentFiles, segmentPath, texts } from './log-test-kit';

// Frames are 8 header bytes + payload: 'alpha' 13, 'bravo' 13, 'charlie' 15 => 41 bytes for three.
const THREE = ['alpha', 'bravo', 'charlie'];
const TWO_FRAMES = 26;

/** Flips every bit of one byte of a file in place. */
function flipByte(path: string, position: number): void {
  const bytes = readFileSync(path);
  bytes[position] ^= 0xff;
  writeFileSync(path, bytes);
}

describe('recovery from real damage to the newest segment', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let segment: string;
  const logs: SegmentedEventLog[] = [];

  const open = async () => {
    const opened = await openLog(dir.path);
    logs.push(opened.log);
    return opened;
  };

  beforeEach(async () => {
    dir = makeTempDir('event-log-recovery');
    segment = segmentPath(dir.path, 0);
    const { log } = await open();
    for (const value of THREE) await log.append(payloads(value)); // three batches of one record
    await log.close();
    expect(statSync(segment).size).toBe(41);
  });

  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close().catch(() => undefined);
    dir.remove();
  });

  /** The shared "then": the valid prefix survives, the cut is logged, and the log takes new appends. */
  async function expectRecoveredTo(validRecords: number, validBytes: number): Promise<void> {
    const sizeBefore = statSync(segment).size;
    const { log, sink } = await open();
    expect([log.head(), log.committedHead()]).toEqual([validRecords, validRecords]);
    expect(texts(await readAll(log))).toEqual(THREE.slice(0, validRecords));
    expect(statSync(segment).size).toBe(validBytes);
    expect(sink.warnings.join('\n')).toContain(`dropping ${sizeBefore - validBytes} trailing bytes`);

    expect(await log.append(payloads('delta', 'echo'))).toEqual({
      first: validRecords,
      next: validRecords + 2,
    });
    await log.close();
    const { log: again, sink: quiet } = await open();
    expect(texts(await readAll(again))).toEqual([...THREE.slice(0, validRecords), 'delta', 'echo']);
    expect(quiet.warnings).toEqual([]);
  }

  it('given a torn tail (file cut inside the last payload), then the first two records survive', async () => {
    truncateSync(segment, 41 - 4);
    await expectRecoveredTo(2, TWO_FRAMES);
  });

  it('given a truncated header (5 of 8 header bytes of the last frame), then the prefix survives', async () => {
    truncateSync(segment, TWO_FRAMES + 5);
    await expectRecoveredTo(2, TWO_FRAMES);
  });

  it("given a flipped byte in the last record's payload, then that record is dropped", async () => {
    flipByte(segment, 41 - 2);
    await expectRecoveredTo(2, TWO_FRAMES);
  });

  it('given a zero-filled tail (size extended, data never written), then the zeros are cut', async () => {
    appendFileSync(segment, Buffer.alloc(4096));
    await expectRecoveredTo(3, 41);
  });

  it('given a half-written frame followed by zeros, then both are cut', async () => {
    const frame = readFileSync(segment).subarray(0, 13);
    appendFileSync(segment, Buffer.concat([frame.subarray(0, 9), Buffer.alloc(100)]));
    await expectRecoveredTo(3, 41);
  });

  it('given damage in the middle of the newest segment, then open refuses and changes nothing', async () => {
    flipByte(segment, 13 + 9); // inside 'bravo': 'charlie' after it is a valid frame
    const before = readFileSync(segment);
    const log = new SegmentedEventLog({ dir: dir.path, logger: new RecordingSink() });
    const opening = log.open();
    await expect(opening).rejects.toBeInstanceOf(LogCorruptedError);
    await expect(opening).rejects.toMatchObject({ segment, position: 13 });
    await expect(opening).rejects.toThrow(/offset 1 .*valid frame follows at byte 26.*npm run salvage/);
    expect(readFileSync(segment).equals(before)).toBe(true);
  });

  it('given a damaged length field that points past the end, then valid frames after it still refuse', async () => {
    const bytes = readFileSync(segment);
    bytes.writeUInt32LE(1000, 13); // 'bravo' now claims 1000 bytes: looks torn, but 'charlie' is whole
    writeFileSync(segment, bytes);
    const log = new SegmentedEventLog({ dir: dir.path, logger: new RecordingSink() });
    await expect(log.open()).rejects.toThrow(/valid frame follows at byte 26/);
    expect(readFileSync(segment).equals(bytes)).toBe(true);
  });

  it('given an append whose last frame is torn, then its whole batch goes (it was never acknowledged)', async () => {
    const { log } = await open();
    await log.append(payloads('delta', 'echo', 'foxtrot')); // one batch: 13 + 12 + 15 bytes
    await log.close();
    truncateSync(segment, 41 + 13 + 12 + 4); // the batch's last frame is torn
    await expectRecoveredTo(3, 41);
  });

  it('given an intact log, then open cuts nothing and warns nothing', async () => {
    const { log, sink } = await open();
    expect(log.head()).toBe(3);
    expect(sink.warnings).toEqual([]);
  });
});

describe('damage in a sealed segment', () => {
  let dir: ReturnType<typeof makeTempDir>;
  const logs: SegmentedEventLog[] = [];

  beforeEach(async () => {
    dir = makeTempDir('event-log-sealed');
    const { log } = await openLog(dir.path, { segmentBytes: 40 }); // 13-byte frames: 3 per segment
    for (const value of ['aaaaa', 'bbbbb', 'ccccc', 'ddddd', 'eeeee', 'fffff', 'ggggg']) {
      await log.append(payloads(value));
    }
    await log.close();
    expect(segmentFiles(dir.path)).toEqual([
      '00000000000000000000.log',
      '00000000000000000003.log',
      '00000000000000000006.log',
    ]);
  });

  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close().catch(() => undefined);
    dir.remove();
  });

  it('given a flipped byte in an older segment, then open succeeds but read throws LogCorruptedError', async () => {
    flipByte(segmentPath(dir.path, 3), 13 + 10); // second frame of the middle segment: offset 4
    const { log } = await openLog(dir.path);
    logs.push(log);
    expect(log.head()).toBe(7);

    const seen: string[] = [];
    const reading = (async () => {
      for await (const record of log.read(0)) seen.push(record.payload.toString());
    })();
    await expect(reading).rejects.toBeInstanceOf(LogCorruptedError);
    await expect(reading).rejects.toMatchObject({ segment: '00000000000000000003.log', position: 13 });
    expect(seen).toEqual(['aaaaa', 'bbbbb', 'ccccc', 'ddddd']); // stops at the damage, skips nothing
    expect(texts(await readAll(log, 6))).toEqual(['ggggg']); // reads past the damaged segment still work
  });

  it('given an older segment that ends early, then read reports it instead of skipping offsets', async () => {
    truncateSync(segmentPath(dir.path, 0), 26); // drop offset 2 from a sealed segment
    const { log } = await openLog(dir.path);
    logs.push(log);
    await expect(readAll(log)).rejects.toThrow(/segment ends at offset 2 but records up to 3/);
  });
});
