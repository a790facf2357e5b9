/** One thing the verifier found wrong, located as precisely as the check allows. */
export interface Finding {
  /** Path relative to the data directory (`log/…`, `checkpoints/…`, `rooms/…`). */
  readonly file: string;
  /** The log offset of the record concerned, when there is one. */
  readonly offset?: number;
  /** Byte position in `file`. */
  readonly position?: number;
  readonly what: string;
}

/** `log/00000000000000000000.log offset 12, byte 345: checksum mismatch` */
export function formatFinding(finding: Finding): string {
  const where = [
    finding.offset === undefined ? null : `offset ${finding.offset}`,
    finding.position === undefined ? null : `byte ${finding.position}`,
  ].filter((part) => part !== null);
  return `${finding.file}${where.length > 0 ? ` ${where.join(', ')}` : ''}: ${finding.what}`;
}
