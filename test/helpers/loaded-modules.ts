import * as path from "node:path";

import { REPO_ROOT, stdoutOfFreshProcess } from "./fresh-process";

/**
 * The modules (paths relative to the repository) a fresh Node.js process has loaded once `script`
 * calls `report()`: what an import costs, seen from a process nothing else has warmed. The script
 * runs in the repository's root with ts-node, so it can require `./src/...`.
 */
export function modulesLoadedBy(script: string): string[] {
  const wrapped = `const report = () => process.stdout.write(JSON.stringify(Object.keys(require.cache)));\n${script}`;
  const out = stdoutOfFreshProcess(wrapped);
  return (JSON.parse(out) as string[]).map((file) => path.relative(REPO_ROOT, file));
}
