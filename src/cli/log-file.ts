/**
 * `nativekit node --log-dir DIR`: the node's log lines also go to `DIR/main.log` (the reference
 * node's main log name), appended, so a runner or a person can read a node's history after it
 * stopped. Lines are written in order through one stream; `close()` flushes it.
 */
import fs from "node:fs";
import path from "node:path";

export interface LogFile {
  readonly path: string;
  write(line: string): void;
  close(): Promise<void>;
}

export function openLogFile(dir: string): LogFile {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "main.log");
  const stream = fs.createWriteStream(file, { flags: "a" });
  return {
    path: file,
    write: (line) => void stream.write(`${line}\n`),
    close: () => new Promise<void>((resolve) => stream.end(resolve)),
  };
}
