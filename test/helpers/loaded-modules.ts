import { execFileSync } from "node:child_process";
import * as path from "node:path";

const REPO_ROOT = path.join(__dirname, "..", "..");

/**
 * The modules (paths relative to the repository) a fresh Node.js process has loaded once `script`
 * calls `report()`: what an import costs, seen from a process nothing else has warmed. The script
 * runs in the repository's root with ts-node, so it can require `./src/...`.
 */
export function modulesLoadedBy(script: string): string[] {
  const wrapped = `const report = () => process.stdout.write(JSON.stringify(Object.keys(require.cache)));\n${script}`;
  const out = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", wrapped], { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 });
  return (JSON.parse(out) as string[]).map((file) => path.relative(REPO_ROOT, file));
}
