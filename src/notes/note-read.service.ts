import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { assertName, hasClass, isValidName } from '../common/names';
import { NoteNotFoundError } from './errors/note-not-found.error';
import { NoteEntry, NotesProjection } from './notes.projection';

/** Note reads and listings (contract §10.1, §10.2), from the notes read model only. */
@Injectable()
export class NoteReadService {
  private readonly idleDays: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly notes: NotesProjection,
  ) {
    this.idleDays = Math.round(config.retentionSeconds / 86400);
  }

  /** The note at ns/key; 404 when there is none. p- keys are readable by anyone who knows them. */
  read(ns: string, key: string): NoteEntry {
    assertName(ns);
    assertName(key);
    const note = this.notes.get(ns, key);
    if (note === undefined) throw new NoteNotFoundError(ns, key, this.idleDays);
    return note;
  }

  /** The listed keys of a namespace in code-point order: never a p- key (any class composition). */
  list(ns: string): string[] {
    assertName(ns);
    return this.notes
      .keys(ns)
      .filter((key) => isValidName(key) && !hasClass(key, 'p'))
      .sort(compareCodePoints);
  }
}

/** Names are ASCII, where UTF-16 order is code-point order; kept explicit for the contract's sake. */
function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
