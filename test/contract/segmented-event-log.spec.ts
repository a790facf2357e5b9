import { FsyncPolicy } from '../../src/log/file/group-commit';
import { SegmentedEventLog } from '../../src/log/file/segmented-event-log';
import { SegmentedEventLogOptions } from '../../src/log/file/segmented-event-log.options';
import { makeTempDir } from '../support/temp-dir';
import { describeEventLogContract } from './event-log.contract';

const quiet = { log: () => undefined, warn: () => undefined };

function fileLog(options: Omit<SegmentedEventLogOptions, 'dir'>) {
  return () => {
    const dir = makeTempDir('event-log-contract');
    const create = () => new SegmentedEventLog({ ...options, dir: dir.path, logger: quiet });
    return { log: create(), reopen: create, dispose: () => dir.remove() };
  };
}

for (const fsync of ['always', 'interval', 'none'] satisfies FsyncPolicy[]) {
  describeEventLogContract(`SegmentedEventLog (fsync ${fsync})`, fileLog({ fsync, fsyncIntervalMs: 5 }), {
    persistent: true,
  });
}

// Tiny segments: every scenario also runs across many rolls and multi-segment reads.
describeEventLogContract(
  'SegmentedEventLog (fsync always, 64-byte segments)',
  fileLog({ segmentBytes: 64 }),
  {
    persistent: true,
  },
);
