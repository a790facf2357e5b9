const NEWLINE = 0x0a;

/**
 * The complete lines of a chunk read from a ring file. Text after the last newline is incomplete (a
 * write in progress or a torn tail) and dropped; when the chunk starts mid-file, its first line may be
 * the end of an earlier record and is dropped too.
 *
 * Each line is decoded on its own (a newline byte never occurs inside a UTF-8 sequence, so this
 * equals decoding the chunk and splitting it). Decoding the whole ≤ 1 MiB chunk first made one large
 * string that every line then pointed into: it kept a loaded tail's parent string alive and, read
 * after read, piled up in V8's large-object space until a full collection (the memory benchmark's
 * peak RSS).
 */
export function completeLines(chunk: Buffer, startsMidLine: boolean): string[] {
  const lines: string[] = [];
  let start = 0;
  let skip = startsMidLine;
  for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
    if (skip) skip = false;
    else lines.push(chunk.toString('utf8', start, end));
    start = end + 1;
  }
  return lines;
}
