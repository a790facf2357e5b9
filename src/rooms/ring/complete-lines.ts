/**
 * The complete lines of a chunk read from a ring file. Text after the last newline is incomplete (a
 * write in progress or a torn tail) and dropped; when the chunk starts mid-file, its first line may be
 * the end of an earlier record and is dropped too.
 */
export function completeLines(chunk: Buffer, startsMidLine: boolean): string[] {
  const lines = chunk.toString('utf8').split('\n');
  lines.pop();
  if (startsMidLine) lines.shift();
  return lines;
}
