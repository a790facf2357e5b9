/** A tool was pointed at a data directory that is not there: one line, not a raw ENOENT from deep inside. */
export class NoDataDirError extends Error {
  constructor(
    readonly path: string,
    reason: 'missing' | 'not a directory',
  ) {
    super(
      `${path}: ${reason === 'missing' ? 'no such directory' : 'not a directory'} ` +
        "(give the service's data directory, its CHAT_ROOT)",
    );
    this.name = new.target.name;
  }
}
