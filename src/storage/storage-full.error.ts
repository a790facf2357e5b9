import { DomainError } from '../common/domain-error';

/** errno codes that mean "the data directory cannot take more bytes", not "this write was wrong". */
const STORAGE_FULL_CODES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exhausted',
  EROFS: 'the file system is read-only',
};

const CODE_IN_MESSAGE = /\b(ENOSPC|EDQUOT|EROFS)\b/;

/**
 * What the disk said, when `error` is a full disk, an exhausted quota or a read-only mount. The code
 * is read from the errno property, else from the message (an error re-wrapped on its way up, or one
 * from another realm, keeps only its text).
 */
export function storageFullCause(error: unknown): string | null {
  const errno = error as NodeJS.ErrnoException | undefined;
  const code = errno?.code ?? CODE_IN_MESSAGE.exec(String(errno?.message ?? error))?.[1];
  return code !== undefined && code in STORAGE_FULL_CODES ? `${code}: ${STORAGE_FULL_CODES[code]}` : null;
}

/**
 * Writes are refused because the data directory cannot store them (507, issue 11). Reads keep being
 * served from the read models; nothing acknowledged is affected (a torn tail is cut at the next start).
 * Only for a write the log did not store: one it stored before a ring write failed is answered with
 * StoredNotAppliedError (issue 24 item 4).
 */
export class StorageFullError extends DomainError {
  constructor(cause: string) {
    super(
      'storage_full',
      `insufficient storage: the data directory refused a write (${cause}). Nothing was stored by this ` +
        'request and acknowledged writes are intact; writes are refused until an operator frees space ' +
        '(or makes the directory writable) and restarts the service. Reads keep working.',
    );
  }
}
