import { Projection } from '../../../src/projections/projection';
import { NO_CHECKPOINT_FILES } from '../../../src/projections/checkpoint-files';
import { ProjectionRegistry } from '../../../src/projections/projection-registry';
import { RingFileStore } from '../../../src/rooms/ring/ring-file-store';
import { makeTempDir } from '../../support/temp-dir';

const named = (name: string): Projection => ({
  name,
  apply: () => undefined,
  snapshot: () => null,
  restore: () => undefined,
});

// Given registrations in any order, then the apply order they declared, or a refusal naming the clash.
describe('ProjectionRegistry', () => {
  it('keeps one live array in declared order, whatever the registration order', () => {
    const registry = new ProjectionRegistry();
    const live = registry.projections;
    registry.register({ projection: named('listing'), order: 30, after: ['rooms'] });
    registry.register({ projection: named('rooms'), order: 10, after: [] });
    registry.register({ projection: named('notes'), order: 20, after: [] });
    expect(registry.projections).toBe(live);
    expect(live.map((p) => p.name)).toEqual(['rooms', 'notes', 'listing']);
    expect(() => registry.assertOrder()).not.toThrow();
  });

  it('refuses a second projection with the same name or the same order', () => {
    const registry = new ProjectionRegistry();
    registry.register({ projection: named('rooms'), order: 10, after: [] });
    expect(() => registry.register({ projection: named('notes'), order: 10, after: [] })).toThrow(
      /names and orders must be unique/,
    );
    expect(() => registry.register({ projection: named('rooms'), order: 20, after: [] })).toThrow(
      /names and orders must be unique/,
    );
  });

  it('refuses to start a projection placed before, or without, one it reads', () => {
    const early = new ProjectionRegistry();
    early.register({ projection: named('rooms'), order: 40, after: [] });
    early.register({ projection: named('listing'), order: 30, after: ['rooms'] });
    expect(() => early.assertOrder()).toThrow(
      'projection listing (order 30) reads rooms, which has order 40',
    );
    const missing = new ProjectionRegistry();
    missing.register({ projection: named('listing'), order: 30, after: ['rooms'] });
    expect(() => missing.assertOrder()).toThrow('reads rooms, which is not registered');
  });

  it('has no checkpoint files until a feature registers them, and accepts only one owner', () => {
    const dir = makeTempDir('registry');
    try {
      const registry = new ProjectionRegistry();
      expect(registry.checkpointFiles).toBe(NO_CHECKPOINT_FILES);
      const files = new RingFileStore(dir.path);
      registry.registerCheckpointFiles('RoomsProjection', files);
      expect(registry.checkpointFiles).toBe(files);
      expect(() => registry.registerCheckpointFiles('Other', NO_CHECKPOINT_FILES)).toThrow(
        /RoomsProjection already did/,
      );
    } finally {
      dir.remove();
    }
  });
});
