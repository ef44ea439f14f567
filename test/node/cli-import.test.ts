import { execFileSync } from "node:child_process";
import * as path from "node:path";

import { expect } from "chai";

const REPO_ROOT = path.join(__dirname, "..", "..");

/** The modules a fresh Node.js process has loaded after importing the CLI (what `nativekit node` loads before it runs). */
function modulesLoadedByTheCli(): string[] {
  const script = `require("./src/cli/main"); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const out = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 });
  return (JSON.parse(out) as string[]).map((file) => path.relative(REPO_ROOT, file));
}

/**
 * `nativekit node` is the command started most (by people, scripts, the network runner): it must
 * not load the other commands' services, which load when their command runs.
 */
describe("nativekit CLI: what importing it loads", function () {
  this.timeout(120_000);

  it("loads no service, client or database driver of the other commands", () => {
    const loaded = modulesLoadedByTheCli();
    const services = loaded.filter(
      (file) =>
        /^src\/(services|clients)\//.test(file) ||
        /^src\/cli\/(vault|explorer|network|network-runner|transfer)-command\.ts$/.test(file) ||
        /node_modules\/(@grpc|@electric-sql\/pglite|pg)\//.test(file),
    );
    expect(services).to.deep.equal([]);
    expect(loaded).to.include(path.join("src", "cli", "cli.ts"));
  });
});
