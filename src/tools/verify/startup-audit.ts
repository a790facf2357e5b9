import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { recoveryRefusals } from '../../projections/checkpoint-recovery';
import { checkpointFileName, CheckpointStore } from '../../projections/checkpoint-store';
import { Finding } from './finding';

/**
 * What a start would refuse besides log damage (which the log audit reports): the newest intact
 * checkpoint against the log's extent and the ring files it names, through the very function start-up
 * recovery uses. A directory the service refuses is never called OK (issue 24 item 3: a replay cut
 * inside a batch left a checkpoint naming a ring file that was never written).
 */
export async function auditStartup(
  root: string,
  log: { readonly firstOffset: number; readonly head: number },
): Promise<Finding[]> {
  // The store creates its directory when missing: a read-only check must not.
  const checkpoint = existsSync(join(root, 'checkpoints'))
    ? await new CheckpointStore(root).newestIntact()
    : null;
  const refusals = recoveryRefusals({
    checkpoint,
    logFirstOffset: log.firstOffset,
    logHead: log.head,
    sizeOf: (file) => {
      const path = join(root, 'rooms', file);
      return existsSync(path) ? statSync(path).size : -1;
    },
  });
  const file = checkpoint === null ? 'log' : `checkpoints/${checkpointFileName(checkpoint.offset)}`;
  return refusals.map((reason) => ({ file, what: `a start would refuse: ${reason}` }));
}
