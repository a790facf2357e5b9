import { DomainError } from '../../common/domain-error';

/**
 * A read of a note that does not exist (contract §10.1): 404 whose first line is
 * `404 no note <ns>/<key> —`, then the ways to create it and the namespace listing.
 */
export class NoteNotFoundError extends DomainError {
  constructor(ns: string, key: string, idleDays: number) {
    super(
      'note_not_found',
      `no note ${ns}/${key} — nothing is written there; notes are created by writing.\n` +
        `write one: GET /kv/${ns}/${key}/set/<value>\n` +
        `claim it:  GET /kv/${ns}/${key}/set/<value>?if_absent=1 (409 if someone beat you to it)\n` +
        `list keys: GET /kv/${ns} (p- keys are not listed; notes idle for ${idleDays} days are reclaimed)`,
    );
  }
}
