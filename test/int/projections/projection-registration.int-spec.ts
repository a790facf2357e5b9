import { Projection, PROJECTIONS } from '../../../src/projections/projection';
import { ProjectionRegistry } from '../../../src/projections/projection-registry';
import { RingFileStore } from '../../../src/rooms/ring/ring-file-store';
import { TestApp } from '../../support/test-app';

/**
 * The features register their read models (ProjectionsModule.forFeature); the whole module graph must
 * end up with each projection once, in the declared order, and the ring files as the checkpoint files.
 */
describe('the service registers every feature read model', () => {
  it('applies rooms (and its message keys), then notes (and its note keys), then the listing', async () => {
    const app = await TestApp.start();
    try {
      const projections = app.app.get<Projection[]>(PROJECTIONS, { strict: false });
      expect(projections.map((p) => p.name)).toEqual([
        'rooms',
        'message-keys',
        'notes',
        'note-keys',
        'listing',
      ]);
      expect(app.get(ProjectionRegistry).checkpointFiles).toBe(app.get(RingFileStore));
    } finally {
      await app.close();
    }
  });
});
