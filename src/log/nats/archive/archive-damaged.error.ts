/** A chunk of the stream archive is not what was written (FORMAT.md): named, and why. */
export class ArchiveDamagedError extends Error {
  constructor(
    readonly chunk: string,
    what: string,
  ) {
    super(`archive chunk ${chunk} is damaged: ${what}`);
  }
}
