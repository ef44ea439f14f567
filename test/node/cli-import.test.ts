import * as path from "node:path";

import { expect } from "chai";

import { modulesLoadedBy } from "../helpers/loaded-modules";

/**
 * `nativekit node` is the command started most (by people, scripts, the network runner): it must
 * not load the other commands' services, which load when their command runs.
 */
describe("nativekit CLI: what importing it loads", function () {
  this.timeout(120_000);

  it("loads no service, client or database driver of the other commands", () => {
    const loaded = modulesLoadedBy(`require("./src/cli/main"); report();`);
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
