import {
  CheckpointAssembler,
  CheckpointLine,
  checkpointLines,
} from '../../../src/projections/checkpoint-format';
import { ScopeHeadsFold, ScopeHeadsState } from '../../../src/projections/scope-heads-fold';

const record = (offset: number, scope?: string) => ({ offset, payload: Buffer.from('x'), scope });

/** The state written into a checkpoint's lines and read back as a start-up reads it. */
function throughCheckpoint(state: ScopeHeadsState): { lines: string[]; read: unknown } {
  const lines = [
    ...checkpointLines({
      version: 2,
      offset: state.offset,
      createdAt: 't',
      files: {},
      projections: { scopeHeads: state },
    }),
  ];
  const assembler = new CheckpointAssembler();
  for (const line of lines) assembler.add(JSON.parse(line) as CheckpointLine);
  return { lines, read: assembler.result().projections.scopeHeads };
}

describe('scope heads (the last record of each scope below an offset), as checkpoints carry them', () => {
  it('given records applied in order, then each scope keeps its last one and the offset follows every record', () => {
    const fold = new ScopeHeadsFold();
    [record(0, 'r:a'), record(1, 'n:x:k'), record(2), record(3, 'r:a'), record(4, 'r:events')].forEach((r) =>
      fold.fold(r),
    );
    expect(fold.next).toBe(5);
    expect(fold.snapshot()).toEqual({
      offset: 5,
      heads: [
        ['r:a', 3],
        ['n:x:k', 1],
        ['r:events', 4],
      ],
    });
  });

  it('given a snapshot, then a checkpoint writes one line per scope and restoring it gives the same heads', () => {
    const fold = new ScopeHeadsFold();
    for (let i = 0; i < 5000; i++) fold.fold(record(i, `r:room-${i % 2500}`));
    const { lines, read } = throughCheckpoint(fold.snapshot());
    expect(lines.filter((line) => line.startsWith('["item"'))).toHaveLength(2500);
    const copy = new ScopeHeadsFold();
    copy.restore(read);
    expect(copy.snapshot()).toEqual(fold.snapshot());
    expect(copy.lastOffset('r:room-7')).toBe(2507);
    expect(copy.lastOffset('r:never')).toBeUndefined();
  });

  it('given a snapshot taken while more records are applied, then it keeps the heads of its own offset', () => {
    const fold = new ScopeHeadsFold();
    fold.fold(record(0, 'r:a'));
    const taken = fold.snapshot();
    fold.fold(record(1, 'r:a'));
    expect(taken).toEqual({ offset: 1, heads: [['r:a', 0]] });
  });

  it('given a head at or past its offset (never written), then restoring drops it rather than check against it', () => {
    const fold = new ScopeHeadsFold();
    fold.restore({
      offset: 10,
      heads: [
        ['r:a', 9],
        ['r:b', 10],
        ['r:c', 12],
      ],
    });
    expect(fold.next).toBe(10);
    expect(fold.snapshot().heads).toEqual([['r:a', 9]]);
  });

  it('given a start after a checkpoint without heads, then it knows none and follows from there', () => {
    const fold = new ScopeHeadsFold();
    fold.restore({ offset: 10, heads: [['r:a', 9]] });
    fold.startAt(20);
    expect(fold.snapshot()).toEqual({ offset: 20, heads: [] });
  });
});
