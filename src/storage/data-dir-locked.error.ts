/** Another live process holds the data directory: starting a second owner would overwrite its log. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holderPid: number | null,
  ) {
    super(
      `data directory ${dir} is locked by ${holderPid === null ? 'another process' : `process ${holderPid}`}: ` +
        'one process owns a CHAT_ROOT at a time. Stop that process, or start this one with another CHAT_ROOT.',
    );
    this.name = new.target.name;
  }
}
