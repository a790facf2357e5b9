import { ProjectionsModule } from '../projections/projections.module';
import { NoteKeysProjection } from './idempotency/note-keys.projection';
import { NotesProjection } from './notes.projection';

/** Where the notes projection is applied: after rooms (it reads nothing else), before the listing. */
export const NOTES_PROJECTION_ORDER = 20;
/** The note idempotency keys: independent of the others (they read only the event). */
export const NOTE_KEYS_PROJECTION_ORDER = 25;

/**
 * The notes read model, registered with the projections layer: the note table and the idempotency keys
 * of note writes. It keeps no files: the whole note table is its checkpoint part. Imported by NotesModule, the listing, stats and the replay tool.
 */
export const NotesReadModelModule = ProjectionsModule.forFeature({
  projections: [
    { use: NotesProjection, order: NOTES_PROJECTION_ORDER },
    { use: NoteKeysProjection, order: NOTE_KEYS_PROJECTION_ORDER },
  ],
});
