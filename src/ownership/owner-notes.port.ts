/**
 * The notes as write decisions see them: the notes read model plus the note events appended but not
 * applied yet. Ownership reads the reserved namespaces through it (owner, allow-list), so a claim
 * decided before a message governs that message's gate.
 *
 * A port, not a class of the notes feature: ownership sits below rooms and notes and imports
 * neither. NoteWriteModel implements it; the composition root (src/app.module.ts) binds it.
 */
export abstract class OwnerNotes {
  /** The note's current value, or null when it does not exist (pending writes and reclaims counted). */
  abstract view(ns: string, key: string): { readonly value: string } | null;
}
