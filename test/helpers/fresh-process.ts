import { execFileSync } from "node:child_process";
import * as path from "node:path";

/** The repository's root, where a fresh process's script runs (so it can require `./src/...`). */
export const REPO_ROOT = path.join(__dirname, "..", "..");

/**
 * What `script` writes to stdout, run in a fresh Node.js process with ts-node from the
 * repository's root: code seen as a new run sees it, with nothing warmed or loaded before.
 * `env` is added to (or, with undefined values, removed from) this process's environment.
 */
export function stdoutOfFreshProcess(script: string, env: NodeJS.ProcessEnv = {}): string {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], { cwd: REPO_ROOT, env: merged, encoding: "utf8", timeout: 60_000 });
}
