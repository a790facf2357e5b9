import { ProjectionsModule } from '../projections/projections.module';
import { NotesProjection } from './notes.projection';

/** Where the notes projection is applied: after rooms (it reads nothing else), before the listing. */
export const NOTES_PROJECTION_ORDER = 20;

/**
 * The notes read model, registered with the projections layer. It keeps no files: the whole note
 * table is its checkpoint part. Imported by NotesModule, the listing, stats and the replay tool.
 */
export const NotesReadModelModule = ProjectionsModule.forFeature({
  projections: [{ use: NotesProjection, order: NOTES_PROJECTION_ORDER }],
});
