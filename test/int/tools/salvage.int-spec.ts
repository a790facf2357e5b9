import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { salvageDataDir } from '../../../src/tools/salvage/salvage-data-dir';
import { openLog, payloads, readAll, segmentFiles, texts } from '../log/log-test-kit';
import { makeTempDir } from '../../support/temp-dir';

/** Issue 24 item 1: salvage across segments keeps every valid frame and offsets contiguous. */
describe('salvage of a log with several segments', () => {
  const dir = makeTempDir('agent-chat-salvage');
  afterAll(() => dir.remove());

  it('moves a damaged frame of a sealed segment aside and renames the later segments', async () => {
    const logDir = join(dir.path, 'log');
    const { log } = await openLog(logDir, { segmentBytes: 40 }); // 13-byte frames: 3 per segment
    const values = ['aaaaa', 'bbbbb', 'ccccc', 'ddddd', 'eeeee', 'fffff', 'ggggg', 'hhhhh'];
    for (const value of values) await log.append(payloads(value));
    await log.close();
    expect(segmentFiles(logDir)).toEqual([
      '00000000000000000000.log',
      '00000000000000000003.log',
      '00000000000000000006.log',
    ]);
    const middle = join(logDir, '00000000000000000003.log');
    const bytes = readFileSync(middle);
    bytes[13 + 10] ^= 0xff; // 'eeeee', offset 4
    writeFileSync(middle, bytes);

    const dry = await salvageDataDir(dir.path, true);
    expect(dry.actions.every((line) => line.startsWith('would '))).toBe(true);
    expect(readFileSync(middle)).toEqual(bytes);

    const done = await salvageDataDir(dir.path, false);
    expect(done).toMatchObject({ framesKept: 7, damagedRegions: 1, damagedBytes: 13 });
    expect(done.actions).toContain(
      'rename log/00000000000000000006.log to log/00000000000000000005.log: offsets stay contiguous',
    );
    expect(segmentFiles(logDir)).toEqual([
      '00000000000000000000.log',
      '00000000000000000003.log',
      '00000000000000000005.log',
    ]);
    expect(readdirSync(join(dir.path, 'salvage'))).toEqual(['00000000000000000003.log.13.damaged']);
    expect(readFileSync(join(dir.path, 'salvage', '00000000000000000003.log.13.damaged'))).toEqual(
      bytes.subarray(13, 26),
    );
    const { log: salvaged } = await openLog(logDir);
    expect(texts(await readAll(salvaged))).toEqual(values.filter((value) => value !== 'eeeee'));
    await salvaged.close();
  });
});
