/**
 * A worker thread running the module `name` beside the caller: its compiled entry (the
 * package's dist/), or, from the TypeScript sources (tests, an unbuilt checkout), eval'd code
 * that registers ts-node and loads the source. Both paths are absolute and no tsconfig is looked
 * for, so the working directory does not matter.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";

export function startWorkerBeside(directory: string, name: string): Worker {
  const compiled = path.join(directory, `${name}.js`);
  if (fs.existsSync(compiled)) return new Worker(compiled);
  const source = path.join(directory, `${name}.ts`);
  const tsNode = require.resolve("ts-node");
  const options = { transpileOnly: true, skipProject: true, compilerOptions: { module: "commonjs", target: "es2022", esModuleInterop: true } };
  return new Worker(`require(${JSON.stringify(tsNode)}).register(${JSON.stringify(options)}); require(${JSON.stringify(source)});`, { eval: true });
}
