/** The toolkit's own version, read once from its package.json. */
import * as fs from "node:fs";
import * as path from "node:path";

let cached: string | undefined;

/** `version` of the nearest package.json named "nativekit" above this file ("unknown" if none). */
export function readPackageVersion(): string {
  if (cached !== undefined) return cached;
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, "package.json");
    try {
      const pkg = JSON.parse(fs.readFileSync(candidate, "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "nativekit" && typeof pkg.version === "string") return (cached = pkg.version);
    } catch {
      // no package.json here; keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) return (cached = "unknown");
    dir = parent;
  }
}
