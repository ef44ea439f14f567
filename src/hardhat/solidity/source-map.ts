/**
 * solc's compressed source maps: one `start:length:file:jump:modifierDepth` entry per
 * instruction, separated by `;`, where an empty field repeats the previous entry's.
 */

/** Where an instruction comes from: a byte range of a source file (`file` -1: code the compiler made up). */
export interface SourceRange {
  readonly start: number;
  readonly length: number;
  readonly file: number;
  /** "i" into a function, "o" out of one, "-" a plain jump. */
  readonly jump: string;
}

export function decodeSourceMap(compressed: string): SourceRange[] {
  const ranges: SourceRange[] = [];
  let start = 0;
  let length = 0;
  let file = -1;
  let jump = "-";
  for (const entry of compressed.split(";")) {
    const [s, l, f, j] = entry.split(":");
    if (s !== undefined && s !== "") start = Number(s);
    if (l !== undefined && l !== "") length = Number(l);
    if (f !== undefined && f !== "") file = Number(f);
    if (j !== undefined && j !== "") jump = j;
    ranges.push({ start, length, file, jump });
  }
  return ranges;
}
