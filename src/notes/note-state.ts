/** What a write decision knows about one note: its value and last write time, or null when absent. */
export interface NoteState {
  readonly value: string;
  readonly lastWriteAt: number;
}
