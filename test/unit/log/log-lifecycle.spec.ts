import { Logger } from '@nestjs/common';
import { LogLifecycle } from '../../../src/log/log-lifecycle';
import { MemoryEventLog } from '../../../src/log/memory/memory-event-log';

const RECORD = [Buffer.from('{}')];

/** Whether the log still takes appends (open) or refuses them (closed). */
const accepts = (log: MemoryEventLog): Promise<boolean> =>
  log.append(RECORD).then(
    () => true,
    () => false,
  );

// Given users registered with the log's lifecycle, when it closes, then their steps run around it.
describe('LogLifecycle', () => {
  beforeAll(() => Logger.overrideLogger(false)); // the failing step's warning

  it('runs every beforeClose while the log is open, in order, and every afterClose once it closed', async () => {
    const log = new MemoryEventLog();
    await log.open();
    const lifecycle = new LogLifecycle(log);
    const seen: string[] = [];
    for (const name of ['projections', 'other']) {
      lifecycle.onClose({
        beforeClose: async () => void seen.push(`${name} before, open: ${await accepts(log)}`),
        afterClose: () => void seen.push(`${name} after`),
      });
    }
    await lifecycle.close();
    expect(seen).toEqual([
      'projections before, open: true',
      'other before, open: true',
      'projections after',
      'other after',
    ]);
    expect(await accepts(log)).toBe(false);
  });

  it('closes the log even when a step before it fails, and a second close joins the first', async () => {
    const log = new MemoryEventLog();
    await log.open();
    const lifecycle = new LogLifecycle(log);
    let after = 0;
    lifecycle.onClose({
      beforeClose: () => Promise.reject(new Error('disk gone')),
      afterClose: () => after++,
    });
    await Promise.all([lifecycle.close(), lifecycle.close()]);
    expect(await accepts(log)).toBe(false);
    expect(after).toBe(1);
  });
});
